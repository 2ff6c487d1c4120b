// Shim: the emulator's cub::BlockRadixRank (device/byo/cub_block_rank.hpp).
#pragma once
#include "device/byo/cub_block_rank.hpp"
