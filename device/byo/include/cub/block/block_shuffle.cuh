// Shim: the emulator's CUB block discontinuities, adjacent differences and shuffles
// (device/byo/cub_block_neighbors.hpp).
#pragma once
#include "device/byo/cub_block_neighbors.hpp"
