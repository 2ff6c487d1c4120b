// Where and when a block ran, under nvcc: the SM id (%smid) and the global timer (%globaltimer),
// and two traced calls that record a block's start and finish for the per-SM timeline.
// The emulator's versions are in device/emu/schedule_emu.hpp; kernels include neither directly
// (device/coop/kernel_api.hpp picks one).
#pragma once

#include "device/gpu/recorder.cuh"

namespace coop {

// The SM the calling thread's block runs on. A block never moves between SMs while it runs.
__device__ __forceinline__ unsigned this_sm_id() {
  return gpu::sm_id();
}

// Nanoseconds since an arbitrary origin, the same on every SM (updated about every 32 ns). Read
// only once a barrier just passed has released the thread (see gpu::departure_timer), so a time
// taken right after block.sync() is after every thread of the block arrived.
__device__ __forceinline__ unsigned long long global_timer_ns() {
  return gpu::departure_timer();
}

namespace detail {

__device__ __forceinline__ void record_block_event(EventKind kind, int line) {
  if (!gpu::tracing()) return;
  const uint32_t rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (rank != 0) return;  // one record per block: thread 0 speaks for it
  Event e{};
  e.kind = kind;
  e.group_kind = GroupKind::Block;
  e.group_id = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  e.group_size = blockDim.x * blockDim.y * blockDim.z;
  e.extra = gpu::sm_id();
  e.line = uint16_t(line);
  e.time = gpu::departure_timer();  // a block's finish comes after its last barrier released it
  gpu::record(e);
}

}  // namespace detail

// Thread 0 of the block records ThreadBegin (extra = SM id, time = %globaltimer); other threads
// record nothing. Call it from every thread at the start of the kernel.
__device__ __forceinline__ void record_block_start(int line = __builtin_LINE()) {
  detail::record_block_event(EventKind::ThreadBegin, line);
}

// Thread 0 of the block records ThreadEnd. Call it after the block's last barrier, so the time is
// when the whole block is done.
__device__ __forceinline__ void record_block_finish(int line = __builtin_LINE()) {
  detail::record_block_event(EventKind::ThreadEnd, line);
}

}  // namespace coop
