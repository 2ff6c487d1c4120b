// Emulated memcpy_async / wait / wait_prior. Each member issues its share of the copy (elements
// rank, rank + size, ... as cooperative_groups deals them) as one batch; the bytes land when the
// member waits for that batch, and the wait then synchronizes the group, as cg::wait does. A read
// of the destination before the wait therefore sees the old contents: the race a GPU may show.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "device/emu/cg/atomics.hpp"
#include "device/emu/cg/record.hpp"
#include "device/emu/cg/warp_groups.hpp"

namespace coop::cg {
namespace detail {

// The member's share of a group's copy: elements rank, rank + size, ... as cooperative_groups
// deals them, and rank 0 takes a tail shorter than an element.
inline std::vector<emu::AsyncCopy> share_of(const emu::GroupRef& g, void* dst, const void* src,
                                            size_t bytes, size_t element) {
  std::vector<emu::AsyncCopy> mine;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (g.size == 1) {
    if (bytes) mine.push_back({d, s, bytes});
    return mine;
  }
  const size_t count = bytes / element;
  for (size_t i = g.rank; i < count; i += g.size)
    mine.push_back({d + i * element, s + i * element, element});
  if (g.rank == 0 && bytes % element)
    mine.push_back({d + count * element, s + count * element, bytes % element});
  return mine;
}

// One member's CopyIssue event; `bytes` is what the whole group copies.
COOP_EMU_UNRECORDED inline void record_copy_issue(const emu::GroupRef& g, const void* dst,
                                                  const void* src, size_t bytes, int line,
                                                  uint64_t time) {
  Event e = ::coop::detail::memory_event(EventKind::CopyIssue, Op::None, dst, line, time);
  e.group_kind = g.kind;
  e.group_id = g.id;
  e.rank = g.rank;
  e.group_size = g.size;
  e.a = reinterpret_cast<uint64_t>(src);
  e.extra = uint32_t(bytes);
  emu::record(e);
}

// Issues this member's share of a copy and hands it to `keep`, which decides when it lands: its
// own batch (cg::memcpy_async), a pipeline's stage, or a cuda::barrier's phase.
template <class Keep>
COOP_EMU_UNRECORDED void issue_copy(const emu::GroupRef& g, void* dst, const void* src,
                                    size_t bytes, size_t element, int line, Keep keep) {
  const emu::PlainStep step = emu::step_plain(uint16_t(line), Op::None);
  const std::vector<emu::AsyncCopy> mine = share_of(g, dst, src, bytes, element);
  keep(mine.data(), mine.size());
  record_copy_issue(g, dst, src, bytes, line, step.time);
}
inline void issue_copy(const emu::GroupRef& g, void* dst, const void* src, size_t bytes,
                       size_t element, int line) {
  issue_copy(g, dst, src, bytes, element, line, emu::async_copy_commit);
}

COOP_EMU_UNRECORDED inline void wait_copies(const emu::GroupRef& g, uint32_t keep, int line) {
  emu::async_copy_wait(keep);
  const emu::CollectiveCall call = meet(g, line, EventKind::CopyWait, Op::None, "wait()");
  Event e = group_event(EventKind::CopyWait, g, line);
  e.time = call.arrive_time;
  e.b = call.depart_time;
  e.extra = keep;
  emu::record(e);
}

// Groups a memcpy_async may be shared among, as CUDA allows: a block, a tile or a coalesced group
// (whose members share one block's shared memory); a grid, a cluster or a runtime-sized tile is
// refused at compile time.
template <class Group>
inline constexpr bool copy_group =
    std::is_same_v<Group, thread_block> || tile_collective_group<Group>;
template <class Group>
constexpr void check_copy_group() {
  static_assert(copy_group<Group>,
                "Async copy is only supported for groups that represent private shared memory: a "
                "thread_block, a thread_block_tile<N> or a coalesced_group");
}

template <class T>
constexpr size_t element_size() {
  if constexpr (std::is_void_v<T>) return 1;
  else return sizeof(T);
}

}  // namespace detail

// Copies `bytes` bytes from src to dst asynchronously, shared among the group's members.
template <class Group, class T>
void memcpy_async(const Group& g, T* dst, const T* src, size_t bytes, int line = __builtin_LINE()) {
  detail::check_copy_group<Group>();
  detail::issue_copy(g.trace_ref(), dst, src, bytes, detail::element_size<T>(), line);
}
// The element-count form: min(dst_count, src_count) elements.
template <class Group, class T>
void memcpy_async(const Group& g, T* dst, size_t dst_count, const T* src, size_t src_count,
                  int line = __builtin_LINE()) {
  detail::check_copy_group<Group>();
  const size_t n = dst_count < src_count ? dst_count : src_count;
  detail::issue_copy(g.trace_ref(), dst, src, n * sizeof(T), sizeof(T), line);
}

// Waits until every copy this group's members issued has landed, then synchronizes the group.
template <class Group>
void wait(const Group& g, int line = __builtin_LINE()) {
  detail::wait_copies(g.trace_ref(), 0, line);
}
// As wait, but the newest Stage batches of each member may stay in flight.
template <unsigned Stage, class Group>
void wait_prior(const Group& g, int line = __builtin_LINE()) {
  detail::wait_copies(g.trace_ref(), Stage, line);
}

}  // namespace coop::cg
