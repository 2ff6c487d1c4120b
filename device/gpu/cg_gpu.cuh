// coop::cg under nvcc: thin wrappers over cooperative_groups that record every call into the
// trace buffer (recorder.cuh). The real group object does the work; the wrapper adds the trace
// identity (kind, block-unique id, meta group, lane mask) that the emulator computes the same way.
// The parts, in the order they build on each other:
//   cg/record.cuh             trace identity, recording of creation, barriers, collectives
//   cg/groups.cuh             thread_group, thread_block, grid_group, cluster_group
//   cg/warp_groups.cuh        coalesced_group, thread_block_tile (1..32 and 64..512)
//   cg/partitions.cuh         tiled_partition, labeled/binary/stride_partition
//   cg/collectives.cuh        reduce, inclusive_scan, exclusive_scan, invoke_one(_broadcast)
//   cg/atomics.cuh            atomicAdd family, cuda::atomic_ref, traced(), __syncthreads()
//   cg/async.cuh              memcpy_async, wait, wait_prior
//   cg/warp_intrinsics.cuh    __shfl*_sync, __ballot/__any/__all_sync, __syncwarp
//   cg/barriers.cuh           cuda::barrier, cuda::pipeline, cuda::memcpy_async, __pipeline_*
#pragma once

#include "device/gpu/cg/async.cuh"
#include "device/gpu/cg/atomics.cuh"
#include "device/gpu/cg/barriers.cuh"
#include "device/gpu/cg/collectives.cuh"
#include "device/gpu/cg/groups.cuh"
#include "device/gpu/cg/partitions.cuh"
#include "device/gpu/cg/record.cuh"
#include "device/gpu/cg/warp_groups.cuh"
#include "device/gpu/cg/warp_intrinsics.cuh"
