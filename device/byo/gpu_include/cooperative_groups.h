// Shim for a user program built for the GPU (nvcc): `cooperative_groups` names coop's traced
// mirror (device/gpu/cg_gpu.cuh), which forwards every call to the real Cooperative Groups and
// records it. The real headers are included under another name, so the mirror can reach them.
#pragma once
#define COOP_BYO_GPU_INSIDE 1
#define cooperative_groups coop_real_cooperative_groups
#include_next <cooperative_groups.h>
#include_next <cooperative_groups/reduce.h>
#include_next <cooperative_groups/scan.h>
#include_next <cooperative_groups/memcpy_async.h>
#include "device/gpu/cg_gpu.cuh"
#undef cooperative_groups
#undef COOP_BYO_GPU_INSIDE
namespace cooperative_groups = ::coop::cg;
