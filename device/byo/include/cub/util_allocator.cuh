// Shim: CUB's caching allocator and debug macros, for the emulator (device/byo/cub_allocator.hpp).
#pragma once
#include "device/byo/cub_allocator.hpp"
