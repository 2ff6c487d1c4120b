// Shim: the emulator's CUB scans and segmented reductions (device/byo/cub_device_scan.hpp).
#pragma once
#include "device/byo/cub_device_scan.hpp"
