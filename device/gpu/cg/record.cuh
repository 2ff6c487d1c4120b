// coop::cg under nvcc, part 1: the trace identity a wrapper adds to a cooperative_groups object,
// and the helpers that record group creation, barriers and collectives.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "device/gpu/recorder.cuh"

namespace coop::cg {
namespace real = ::cooperative_groups;

namespace detail {

// What the recorder knows about a group beyond what cooperative_groups exposes: its kind and
// block-unique id (the same numbering the emulator uses), its meta group, and for groups inside
// one warp the lane mask of its members.
struct TraceId {
  GroupKind kind;
  uint32_t id;
  uint32_t meta_rank;
  uint32_t meta_size;
  uint32_t mask;  // lanes of the warp in the group; 0 for groups that are not warp-level
};

__device__ __forceinline__ uint32_t lane_id() {
  uint32_t lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__device__ __forceinline__ uint32_t lanes_below() {
  uint32_t mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}
__device__ __forceinline__ uint32_t low_mask(uint32_t n) {
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1);
}
__device__ __forceinline__ uint32_t block_thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ uint32_t block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ uint32_t block_linear() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// A tile of `size` threads holding the caller, `present` of which exist (last tile of a block).
__device__ __forceinline__ TraceId tile_id(uint32_t size, uint32_t present, uint32_t meta_rank,
                                           uint32_t meta_size) {
  const uint32_t mask = size <= 32 ? low_mask(present) << (lane_id() & ~(size - 1)) : 0;
  return TraceId{GroupKind::Tile, block_thread_rank() / size, meta_rank, meta_size, mask};
}

__device__ __forceinline__ Event group_event(EventKind kind, GroupKind group, uint32_t id,
                                             uint32_t rank, uint32_t size, int line) {
  Event e{};
  e.kind = kind;
  e.group_kind = group;
  e.group_id = id;
  e.rank = rank;
  e.group_size = size;
  e.line = uint16_t(line);
  e.time = gpu::global_timer();
  return e;
}

__device__ __forceinline__ void record_create(const TraceId& t, uint32_t rank, uint32_t size,
                                              int line) {
  if (!gpu::tracing()) return;
  Event e = group_event(EventKind::GroupCreate, t.kind, t.id, rank, size, line);
  e.extra = pack_meta(t.meta_rank, t.meta_size);
  gpu::record(e);
}

// Records a barrier-like call around `wait` (which blocks): arrival time, departure in b (read
// with departure_timer, which waits until the barrier has really let this thread go).
template <class Wait>
__device__ __forceinline__ void timed(EventKind kind, const TraceId& t, uint32_t rank,
                                      uint32_t size, int line, uint32_t extra, Wait wait) {
  if (!gpu::tracing()) {
    wait();
    return;
  }
  const uint64_t arrive = gpu::global_timer();
  wait();
  const uint64_t depart = gpu::departure_timer();
  Event e = group_event(kind, t.kind, t.id, rank, size, line);
  e.time = arrive;
  e.b = depart;
  e.extra = extra;
  gpu::record(e);
}

__device__ __forceinline__ void record_arrive(const TraceId& t, uint32_t rank, uint32_t size,
                                              int line) {
  if (!gpu::tracing()) return;
  Event e = group_event(EventKind::BarrierArrive, t.kind, t.id, rank, size, line);
  gpu::record(e);
}

template <class T>
__device__ __forceinline__ void record_collective(const TraceId& t, uint32_t rank, uint32_t size,
                                                  int line, Op op, T in, T out, uint32_t extra) {
  if (!gpu::tracing()) return;
  Event e = group_event(EventKind::Collective, t.kind, t.id, rank, size, line);
  e.op = op;
  e.a = to_bits(in);
  e.b = to_bits(out);
  e.extra = extra;
  e.value_type = value_type_of<T>();
  gpu::record(e);
}

}  // namespace detail
}  // namespace coop::cg
