// Shim: the emulator's CUB, all of it (device/byo/cub_*.hpp).
#pragma once
#include "device/byo/cub_device.hpp"
#include "device/byo/cub_device_scan.hpp"
#include "device/byo/cub_device_select.hpp"
#include "device/byo/cub_device_sort.hpp"
#include "device/byo/cub_device_for.hpp"
#include "device/byo/cub_block_io.hpp"
#include "device/byo/cub_warp_io.hpp"
#include "device/byo/cub_block_sort.hpp"
#include "device/byo/cub_block_histogram.hpp"
#include "device/byo/cub_block_neighbors.hpp"
#include "device/byo/cub_allocator.hpp"
