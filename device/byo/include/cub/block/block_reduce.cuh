// Shim: the emulator's CUB block and warp reductions and block scans (device/byo/cub_block.hpp).
#pragma once
#include "device/byo/cub_block.hpp"
