// Shim: the emulator's cub::DeviceMerge (device/byo/cub_device_sort.hpp).
#pragma once
#include "device/byo/cub_device_sort.hpp"
