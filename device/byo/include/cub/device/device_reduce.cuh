// Shim: the emulator's CUB (device/byo/cub_block.hpp, device/byo/cub_device.hpp).
#pragma once
#include "device/byo/cub_device.hpp"
