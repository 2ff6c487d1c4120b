// Shim: the emulator's CUB block loads, stores and exchanges (device/byo/cub_block_io.hpp).
#pragma once
#include "device/byo/cub_block_io.hpp"
