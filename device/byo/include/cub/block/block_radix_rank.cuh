// Shim: the emulator's cub::BlockRadixRank and cub::BlockRadixRankMatch
// (device/byo/cub_block_rank.hpp).
#pragma once
#include "device/byo/cub_block_rank.hpp"
