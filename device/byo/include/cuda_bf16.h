// Shim: CUDA's own cuda_bf16.h, read as a host compiler reads it, as byo/include/cuda_fp16.h
// reads cuda_fp16.h (which CUDA's cuda_bf16.h includes from beside itself, so that shim comes
// first). Then what CUDA keeps for device code, defined for the emulator.
#pragma once
#include <cuda_fp16.h>

#include "device/byo/host_libraries_begin.hpp"
#include_next <cuda_bf16.h>
#include "device/byo/host_libraries_end.hpp"

COOP_HALF_INTRINSICS(__nv_bfloat16, __nv_bfloat162, bfloat16, 7)
// Integers to bfloat16 with directed rounding (half's are host code in cuda_fp16.h).
COOP_HALF_ROUNDED_FROM(__nv_bfloat16, bfloat16, int, int)
COOP_HALF_ROUNDED_FROM(__nv_bfloat16, bfloat16, short, short)
COOP_HALF_ROUNDED_FROM(__nv_bfloat16, bfloat16, unsigned, uint)
COOP_HALF_ROUNDED_FROM(__nv_bfloat16, bfloat16, unsigned short, ushort)
COOP_HALF_ROUNDED_FROM(__nv_bfloat16, bfloat16, long long, ll)
COOP_HALF_ROUNDED_FROM(__nv_bfloat16, bfloat16, unsigned long long, ull)
