// Shim: the emulator's cub::BFEDigitExtractor and cub::ShiftDigitExtractor
// (device/byo/cub_block_rank.hpp).
#pragma once
#include "device/byo/cub_block_rank.hpp"
