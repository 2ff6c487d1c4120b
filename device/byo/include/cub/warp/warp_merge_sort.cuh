// Shim: the emulator's CUB block and warp sorts (device/byo/cub_block_sort.hpp).
#pragma once
#include "device/byo/cub_block_sort.hpp"
