// Shim: the emulator's CUB for-each and adjacent differences (device/byo/cub_device_for.hpp).
#pragma once
#include "device/byo/cub_device_for.hpp"
