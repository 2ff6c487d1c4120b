// Shim: every CUB header the emulator has not (each of CUB's own starts by including this one).
#pragma once
#error "coopviz: on the emulator, CUB has cub::DeviceReduce, cub::DeviceScan, cub::BlockReduce, cub::BlockScan and cub::WarpReduce (device/byo/cub_block.hpp); the rest of CUB runs on the GPU backend only"
