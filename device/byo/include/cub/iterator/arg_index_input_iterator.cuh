// Shim: the emulator's CUB loads, stores, iterators and shuffles (device/byo/cub_thread_io.hpp).
#pragma once
#include "device/byo/cub_thread_io.hpp"
