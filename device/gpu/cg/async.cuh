// coop::cg under nvcc, part 7: memcpy_async / wait / wait_prior over cooperative_groups,
// recording each member's issue and the wait's arrival and departure.
#pragma once

#include <cooperative_groups/memcpy_async.h>

#include "device/gpu/cg/atomics.cuh"
#include "device/gpu/cg/warp_groups.cuh"

namespace coop::cg {
namespace detail {

template <class Group>
__device__ void record_copy_issue(const Group& g, const void* dst, const void* src, size_t bytes,
                                  int line) {
  if (!gpu::tracing()) return;
  Event e = ::coop::detail::memory_event(EventKind::CopyIssue, Op::None, dst, line);
  const TraceId t = g.trace_id();
  e.group_kind = t.kind;
  e.group_id = t.id;
  e.rank = uint32_t(g.thread_rank());
  e.group_size = uint32_t(g.num_threads());
  e.a = reinterpret_cast<uint64_t>(src);
  e.extra = uint32_t(bytes);
  gpu::record(e);
}

// Groups a memcpy_async may be shared among, as CUDA allows: a block, a tile or a coalesced group
// (whose members share one block's shared memory); a grid, a cluster or a runtime-sized tile is
// refused at compile time.
template <class Group>
inline constexpr bool copy_group =
    ::cuda::std::is_same_v<Group, thread_block> || tile_collective_group<Group>;
template <class Group>
__device__ constexpr void check_copy_group() {
  static_assert(copy_group<Group>,
                "Async copy is only supported for groups that represent private shared memory: a "
                "thread_block, a thread_block_tile<N> or a coalesced_group");
}

}  // namespace detail

// Copies `bytes` bytes from src to dst asynchronously, shared among the group's members.
template <class Group, class T>
__device__ void memcpy_async(const Group& g, T* dst, const T* src, size_t bytes,
                             int line = __builtin_LINE()) {
  detail::check_copy_group<Group>();
  detail::record_copy_issue(g, dst, src, bytes, line);
  real::memcpy_async(g.real_group(), dst, src, bytes);
}
// The element-count form: min(dst_count, src_count) elements.
template <class Group, class T>
__device__ void memcpy_async(const Group& g, T* dst, size_t dst_count, const T* src,
                             size_t src_count, int line = __builtin_LINE()) {
  detail::check_copy_group<Group>();
  detail::record_copy_issue(g, dst, src, min(dst_count, src_count) * sizeof(T), line);
  real::memcpy_async(g.real_group(), dst, dst_count, src, src_count);
}

// Waits until the group's copies have landed, then synchronizes the group.
template <class Group>
__device__ void wait(const Group& g, int line = __builtin_LINE()) {
  detail::timed(EventKind::CopyWait, g.trace_id(), uint32_t(g.thread_rank()),
                uint32_t(g.num_threads()), line, 0, [&] { real::wait(g.real_group()); });
}
// As wait, but the newest Stage batches of each member may stay in flight.
template <unsigned Stage, class Group>
__device__ void wait_prior(const Group& g, int line = __builtin_LINE()) {
  detail::timed(EventKind::CopyWait, g.trace_id(), uint32_t(g.thread_rank()),
                uint32_t(g.num_threads()), line, Stage,
                [&] { real::wait_prior<Stage>(g.real_group()); });
}

}  // namespace coop::cg
