// Shim: the emulator's CUB selection, partition, run-length encoding and histograms
// (device/byo/cub_device_select.hpp).
#pragma once
#include "device/byo/cub_device_select.hpp"
