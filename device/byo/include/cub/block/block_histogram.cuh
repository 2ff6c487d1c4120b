// Shim: the emulator's CUB block histogram (device/byo/cub_block_histogram.hpp).
#pragma once
#include "device/byo/cub_block_histogram.hpp"
