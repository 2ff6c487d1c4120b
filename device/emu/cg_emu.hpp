// coop::cg for the host compiler: the traced Cooperative Groups API running on the emulator.
// Same names, signatures and semantics as cooperative_groups; every call records what a view
// needs. The parts, in the order they build on each other:
//   cg/record.hpp       meeting a group at a call (rendezvous), recording, warp-op resolvers
//   cg/groups.hpp       thread_group, thread_block, grid_group, cluster_group, split barriers
//   cg/warp_groups.hpp  coalesced_group, thread_block_tile (1..32 and 64..512), coalesced_threads
//   cg/partitions.hpp   tiled_partition, labeled_partition, binary_partition, stride_partition
//   cg/collectives.hpp  reduce, inclusive_scan, exclusive_scan, invoke_one(_broadcast)
//   cg/atomics.hpp      atomicAdd family, cuda::atomic_ref, traced(), __syncthreads()
//   cg/async.hpp        memcpy_async, wait, wait_prior
//   cg/barrier.hpp      cuda::barrier, cuda::memcpy_async with a barrier
//   cg/pipeline.hpp     cuda::pipeline, cuda::memcpy_async with a pipeline, <cuda_pipeline.h>
#pragma once

#include "device/emu/cg/async.hpp"
#include "device/emu/cg/atomics.hpp"
#include "device/emu/cg/barrier.hpp"
#include "device/emu/cg/collectives.hpp"
#include "device/emu/cg/groups.hpp"
#include "device/emu/cg/partitions.hpp"
#include "device/emu/cg/pipeline.hpp"
#include "device/emu/cg/record.hpp"
#include "device/emu/cg/warp_groups.hpp"
