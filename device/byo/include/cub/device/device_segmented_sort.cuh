// Shim: the emulator's CUB sorts (device/byo/cub_device_sort.hpp).
#pragma once
#include "device/byo/cub_device_sort.hpp"
