// The GPU side of the recorder: where traced calls write their events on the device.
//
// Each translation unit that holds lesson kernels gets its own copy of the sink (a `static`
// __constant__), set by that unit's own `set_trace_sink` right before a launch; this avoids
// relocatable device code. Slots are reserved a warp at a time (one atomicAdd per coalesced set
// of lanes), which keeps a full-GPU trace fast, and the counter keeps counting past the capacity
// so overflow is known exactly without ever writing out of bounds.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "device/trace/event.hpp"
#include "device/trace/value.hpp"

namespace coop::gpu {

#ifdef COOP_BYO_DEVICE_HALF
// A user program's device code compiled apart is loaded as a library, where coop finds the sink
// by this name (_ZN4coop3gpu12g_trace_sinkE): one of external linkage keeps it.
__constant__ TraceSink g_trace_sink;
#elif defined(COOP_BYO_LINKED_DEVICE_CODE)
// A user program of several files, compiled with relocatable device code and linked: one sink
// for all of them, defined in the unit coopviz adds to the link (app/program/program_files.cpp,
// which defines COOP_BYO_TRACE_SINK_UNIT) and declared in every other, as a kernel may be
// launched from another file and call device functions of a third. So is the traced grid below.
#ifdef COOP_BYO_TRACE_SINK_UNIT
#define COOP_GPU_LINKED_STATE
#else
#define COOP_GPU_LINKED_STATE extern
#endif
COOP_GPU_LINKED_STATE __constant__ TraceSink g_trace_sink;
#else
static __constant__ TraceSink g_trace_sink;
#endif

#ifdef __CUDACC_RDC__
// A program whose kernels launch kernels (relocatable device code): the grids they launch run
// while the traced one does, and must not write into its trace. The traced grid is the first to
// claim this (by its %gridid): a child exists only once a thread of it launched one, which claims
// first (gpu_runtime.cuh). Set back to none before each traced launch, by the launching file's
// set_trace_sink: in a program of several files every file's device code reads that one.
#ifdef COOP_GPU_LINKED_STATE
COOP_GPU_LINKED_STATE __device__ unsigned long long g_traced_grid;
#else
static __device__ unsigned long long g_traced_grid;
#endif
#endif

// Host side: points this translation unit's kernels at a sink (called by the GPU executor).
static inline cudaError_t set_trace_sink(const TraceSink& sink, cudaStream_t stream) {
#ifdef __CUDACC_RDC__
  const unsigned long long none = 0;
  if (const cudaError_t e = cudaMemcpyToSymbolAsync(g_traced_grid, &none, sizeof none, 0,
                                                    cudaMemcpyHostToDevice, stream);
      e != cudaSuccess)
    return e;
#endif
  return cudaMemcpyToSymbolAsync(g_trace_sink, &sink, sizeof sink, 0, cudaMemcpyHostToDevice,
                                 stream);
}

// %globaltimer: nanoseconds, updated every 32 ns or so on recent GPUs. The "memory" clobber keeps
// the compiler from moving the read across the calls around it.
__device__ __forceinline__ uint64_t global_timer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// %globaltimer once the calling thread has really left the barrier it just passed.
//
// Since Volta, bar.sync compiles to BAR.SYNC.DEFER_BLOCKING: a warp that arrives keeps issuing
// the instructions after it until one of them needs the barrier (a memory access, say). The timer
// read (CS2R Rx, SR_GLOBALTIMERLO) needs nothing, so it ran while the warp still waited, and every
// thread but the last seemed to leave the moment it arrived. The SASS order was right; the
// hardware read the clock early. A CTA-scope fence (MEMBAR.SC.CTA) is a memory operation the warp
// cannot issue before the barrier lets it go, so the read after it is a true departure time. Grid
// sync, memcpy_async waits and split barriers end in bar.sync too; on cluster and warp barriers
// the fence costs little and changes nothing. Only traced runs execute it.
__device__ __forceinline__ uint64_t departure_timer() {
  __threadfence_block();
  return global_timer();
}

__device__ __forceinline__ uint32_t sm_id() {
  uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ uint32_t global_thread_id() {
  const uint32_t block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const uint32_t thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return block * (blockDim.x * blockDim.y * blockDim.z) + thread;
}

#ifdef __CUDACC_RDC__
// Whether the calling thread's grid is the traced one (claiming it if no grid has yet).
__device__ __forceinline__ bool in_traced_grid() {
  unsigned long long id;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
  const unsigned long long claimed = *static_cast<volatile unsigned long long*>(&g_traced_grid);
  if (claimed != 0) return claimed == id;
  const unsigned long long was = atomicCAS(&g_traced_grid, 0ull, id);
  return was == 0 || was == id;
}
__device__ __forceinline__ bool tracing() {
  return g_trace_sink.enabled != 0 && in_traced_grid();
}
#else
__device__ __forceinline__ bool tracing() { return g_trace_sink.enabled != 0; }
#endif

// Appends one event for the calling thread. Fills thread and sequence.
__device__ __forceinline__ void record(Event& event) {
  if (!tracing()) return;
  namespace cgr = ::cooperative_groups;
  const cgr::coalesced_group active = cgr::coalesced_threads();
  unsigned long long base = 0;
  if (active.thread_rank() == 0) base = atomicAdd(g_trace_sink.attempts, active.num_threads());
  const unsigned long long slot = active.shfl(base, 0) + active.thread_rank();
  if (slot >= g_trace_sink.capacity) return;  // counted by the attempts counter, not written
  event.thread = global_thread_id();
  event.sequence = uint32_t(slot);
  union alignas(16) Packed {
    Event e;
    uint4 v[4];
  } packed;
  packed.e = event;
  uint4* dst = reinterpret_cast<uint4*>(g_trace_sink.events + slot);
#pragma unroll
  for (int i = 0; i < 4; ++i) dst[i] = packed.v[i];
}

}  // namespace coop::gpu
