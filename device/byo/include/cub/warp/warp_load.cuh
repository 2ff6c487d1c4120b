// Shim: the emulator's CUB warp loads, stores and exchanges (device/byo/cub_warp_io.hpp).
#pragma once
#include "device/byo/cub_warp_io.hpp"
