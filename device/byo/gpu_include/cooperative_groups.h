// Shim for a user program built for the GPU (nvcc): `cooperative_groups` names coop's traced
// mirror (device/gpu/cg_gpu.cuh), which forwards every call to the real Cooperative Groups and
// records it. The real headers are included under another name, so the mirror can reach them.
#pragma once
// Every program includes this (through device/byo/gpu_runtime.cuh), and with it CUDA's headers
// that a program of its own may not include: Cooperative Groups' use L and R, memcpy_async's and
// the pipeline's N. A program's macro of such a name (nvcc -D N=4096) is set aside meanwhile.
#pragma push_macro("L")
#pragma push_macro("N")
#pragma push_macro("R")
#undef L
#undef N
#undef R
#define COOP_BYO_GPU_INSIDE 1
#define cooperative_groups coop_real_cooperative_groups
#include_next <cooperative_groups.h>
#include_next <cooperative_groups/reduce.h>
#include_next <cooperative_groups/scan.h>
#include_next <cooperative_groups/memcpy_async.h>
#include "device/gpu/cg_gpu.cuh"
#undef cooperative_groups
#undef COOP_BYO_GPU_INSIDE
#pragma pop_macro("L")
#pragma pop_macro("N")
#pragma pop_macro("R")
namespace cooperative_groups = ::coop::cg;
