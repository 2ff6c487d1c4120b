// Shim: CUDA's own cuda_fp16.h, read as a host compiler reads it (with __CUDA_ARCH__ and __CUDACC__,
// which the emulator's build sets, it would take its PTX paths): __half and __half2, their
// conversions, operators, comparisons and host arithmetic are the toolkit's. Then what CUDA keeps
// for device code, defined for the emulator (device/byo/half_intrinsics.hpp).
#pragma once
#include "device/byo/host_libraries_begin.hpp"
#include_next <cuda_fp16.h>
#include "device/byo/host_libraries_end.hpp"

#include "device/byo/half_intrinsics.hpp"

COOP_HALF_INTRINSICS(__half, __half2, half, 10)
