// Shim: every other CUB header the emulator has not (each of CUB's own starts by including this
// one, so the compiler's "In file included from" line just above names it).
#pragma once
#error "coopviz: this CUB header is not on the emulator yet; run this program with --backend gpu (the emulator's CUB: device/byo/include/cub/cub.cuh)"
#include "device/byo/cub_missing.hpp"
