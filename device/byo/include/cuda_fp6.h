// Shim: CUDA's own cuda_fp6.h, read as a host compiler reads it, after the cuda_fp8.h shim (CUDA's
// cuda_fp6.h includes cuda_fp8.h from beside itself): see cuda_fp8.h.
#pragma once
#include <cuda_fp8.h>

#include "device/byo/host_libraries_begin.hpp"
#include_next <cuda_fp6.h>
#include "device/byo/host_libraries_end.hpp"
