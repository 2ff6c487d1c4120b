// Shim: the emulator's cub::BlockRunLengthDecode (device/byo/cub_block_rank.hpp).
#pragma once
#include "device/byo/cub_block_rank.hpp"
