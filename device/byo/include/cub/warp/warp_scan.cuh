// Shim: the emulator's CUB block radix sort and warp scans (device/byo/cub_block_sort.hpp).
#pragma once
#include "device/byo/cub_block_sort.hpp"
