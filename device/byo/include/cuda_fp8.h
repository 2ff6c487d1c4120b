// Shim: CUDA's own cuda_fp8.h, read as a host compiler reads it, after the half and bfloat16
// shims (CUDA's cuda_fp8.h includes cuda_fp16.h and cuda_bf16.h from beside itself, which would
// read them with nvcc's macros). Its types and conversions are host code in the toolkit.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device/byo/host_libraries_begin.hpp"
#include_next <cuda_fp8.h>
#include "device/byo/host_libraries_end.hpp"
