// Emulated coop::cg, part 4: partitions. Partitioning is collective: every member of the parent
// must make the call. How the members take part follows cooperative_groups.h:
//   - a tile of at most 32 threads (tiled_partition<N> with N <= 32, and tiled_partition(parent,
//     n)) is computed by each thread alone from its rank: no meeting, no barrier, no memory
//     ordering. The emulator notes each call (emu::note_partition) and reports, when the block
//     finishes, a member of the parent that skipped it, naming the line and the threads;
//   - a tile of 64 threads or more synchronizes its parent as it forms (the constructor of
//     __static_size_multi_warp_tile_base calls g.sync() on sm_80 and later): a real meeting;
//   - labeled, binary and stride partitions are computed with match and ballot over the parent's
//     lanes: a warp-level meeting like a shuffle, which orders no memory either.
// Then each thread records the group it landed in: rank, size, group id and meta group.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>

#include "device/emu/cg/warp_groups.hpp"

namespace coop::cg {
namespace detail {

// A tile of 64 threads or more: the parent's members meet, as its g.sync() makes them.
inline void meet_parent(const emu::GroupRef& parent, int line, const char* what, uint64_t arg) {
  meet(parent, line, EventKind::GroupCreate, Op::None, what, nullptr, 0, 0, arg);
}

struct Partition {
  emu::GroupRef ref;
  uint32_t meta_rank = 0, meta_size = 1;
};

// cooperative_groups' tiled_partition(parent, n) for a runtime n, mirroring its rules: a block
// is cut into tiles by thread rank (the last one may be short); a tile is cut into aligned
// sub-tiles; any other warp-level group is cut by rank into coalesced groups. A group no larger
// than n is returned unchanged.
inline Partition runtime_tile(const handle& parent, unsigned n, int line) {
  const emu::GroupRef& p = parent.trace_ref();
  if (n == 0 || n > 32 || (n & (n - 1)) != 0)
    emu::fault("tiled_partition(parent, " + std::to_string(n) +
                   "): the size must be a power of two from 1 to 32 (use tiled_partition<64> or "
                   "<128> for larger tiles)",
               uint16_t(line));
  const bool block = p.kind == GroupKind::Block;
  if (!block && p.warp_mask == 0)
    emu::fault("tiled_partition(parent, n) needs a thread block, a tile of at most 32 threads or "
               "a coalesced group as its parent",
               uint16_t(line));
  emu::note_partition(p, uint16_t(line), "tiled_partition()");
  if (!block && p.size <= n) return {p, parent.trace_meta_rank(), parent.trace_meta_size()};
  const uint32_t base = p.rank & ~(n - 1);
  if (block || p.kind == GroupKind::Tile) {
    const uint32_t meta_size = block ? (p.size + n - 1) / n : p.size / n;
    return {tile_group(n, std::min(p.size - base, n)), p.rank / n, meta_size};
  }
  // A coalesced group: members of ranks [base, base + n) in lane order.
  uint32_t mask = 0, seen = 0;
  for (uint32_t m = p.warp_mask; m; m &= m - 1, ++seen)
    if (seen >= base && seen < base + n) mask |= 1u << std::countr_zero(m);
  return {warp_group(GroupKind::Coalesced, mask, mask), p.rank / n, (p.size + n - 1) / n};
}

// Lanes that share a label: labeled_partition's groups (out: lane mask of the caller's group,
// out2: its meta rank and count, as cooperative_groups numbers them by leader lane). `arg` is the
// caller's lane; shared_arg the partition kind. Members that exited take no part (by_rank null),
// except in binary_partition, which cooperative_groups computes from the parent's whole mask
// (details/partitioning.h, _binary_partition): the false side is that mask less the lanes that
// voted true, so it keeps lanes that have exited, and when no lane voted true the one group is
// the whole parent.
inline void resolve_labels(std::span<emu::CollectiveCall* const> by_rank) {
  const emu::CollectiveCall* first = nullptr;
  for (auto* c : by_rank) first = first ? first : c;
  const bool binary = GroupKind(first->shared_arg) == GroupKind::Binary;
  const uint32_t parent = first->group.warp_mask;
  uint32_t set = 0, leaders = 0;
  for (auto* c : by_rank)
    if (c && c->in) set |= 1u << c->arg;
  for (auto* c : by_rank) {
    if (!c) continue;
    uint32_t mask = 0;
    for (auto* o : by_rank)
      if (o && o->in == c->in) mask |= 1u << o->arg;
    if (binary && !c->in) mask = set == 0 ? parent : parent & ~set;
    c->out = mask;
    leaders |= mask & (~mask + 1);
  }
  for (auto* c : by_rank) {
    if (!c) continue;
    const uint32_t leader = uint32_t(c->out) & (~uint32_t(c->out) + 1);
    uint64_t meta_rank = uint32_t(std::popcount(leaders & (leader - 1)));
    uint64_t meta_size = uint32_t(std::popcount(leaders));
    if (binary) {
      const bool split = set != 0 && set != parent;
      meta_rank = split ? (c->in != 0) : 0;
      meta_size = split ? 2 : 1;
    }
    c->out2 = meta_rank | (meta_size << 32);
  }
}

inline coalesced_group split_by_label(const emu::GroupRef& parent, GroupKind kind, uint64_t label,
                                      uint32_t id, int line, const char* what) {
  if (parent.warp_mask == 0)
    emu::fault(std::string(what) + " needs a tile of at most 32 threads or a coalesced group",
               uint16_t(line));
  const emu::CollectiveCall call = meet(parent, line, EventKind::GroupCreate, Op::None, what,
                                        resolve_labels, label, emu::this_thread().lane,
                                        uint64_t(kind));
  const uint32_t meta_rank = uint32_t(call.out2), meta_size = uint32_t(call.out2 >> 32);
  auto g = access::make<coalesced_group>(warp_group(kind, id, uint32_t(call.out)), meta_rank,
                                         meta_size);
  record_create(g.trace_ref(), meta_rank, meta_size, line);
  return g;
}

template <class Label>
uint64_t label_bits(Label label) {
  static_assert(std::is_integral_v<Label> || std::is_pointer_v<Label>,
                "labeled_partition's label must be an integral or pointer type");
  if constexpr (std::is_pointer_v<Label>) return reinterpret_cast<uint64_t>(label);
  else return uint64_t(label);
}

template <class Group>
concept WarpLevel = std::is_same_v<Group, coalesced_group> ||
    (std::is_base_of_v<warp_collectives, Group>);

}  // namespace detail

// Tiles of a runtime size (a power of two, at most 32) of a block, a tile or a coalesced group.
inline thread_group tiled_partition(const thread_group& parent, unsigned int tile_size,
                                    int line = __builtin_LINE()) {
  const detail::Partition t = detail::runtime_tile(parent, tile_size, line);
  detail::record_create(t.ref, t.meta_rank, t.meta_size, line);
  return detail::access::make<thread_group>(t.ref, t.meta_rank, t.meta_size);
}
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tile_size,
                                       int line = __builtin_LINE()) {
  const detail::Partition t = detail::runtime_tile(parent, tile_size, line);
  detail::record_create(t.ref, t.meta_rank, t.meta_size, line);
  return detail::access::make<coalesced_group>(t.ref, t.meta_rank, t.meta_size);
}

// Tiles of a compile-time size of a block or of a larger tile (tiles of tiles). Tiles of 64 or
// more threads synchronize their parent as they form, as cooperative_groups does; smaller ones
// are each thread's own arithmetic.
//
// A block whose size the tile does not divide ends in a partial tile (120 threads: tiles of 32,
// 32, 32 and 24). cooperative_groups gives it no special treatment (cooperative_groups.h,
// __static_size_tile_base and __static_size_thread_block_tile_base): num_threads() is still Size,
// thread_rank() is the block rank modulo Size, meta_group_size() rounds up, and its collectives
// name all Size lanes of the tile in their mask (build_mask()). The missing lanes behave as
// exited ones do in a warp operation: the others need not wait for them, a ballot has 0 for
// them, all() is false (it compares the ballot with that mask), and reading their value (a
// shfl from them, a reduce over the tile) is undefined, which the emulator reports.
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent,
                                                 int line = __builtin_LINE()) {
  const emu::GroupRef& p = parent.trace_ref();
  if (Size > 32 && p.size % Size != 0)
    emu::fault("tiled_partition<" + std::to_string(Size) + "> of a group of " +
                   std::to_string(p.size) +
                   " threads: tiles of 64 threads or more must divide their parent",
               uint16_t(line));
  if constexpr (Size > 32)
    detail::meet_parent(p, line, "tiled_partition()", Size);
  else
    emu::note_partition(p, uint16_t(line), "tiled_partition()");
  const uint32_t meta_rank = uint32_t(p.rank / Size);
  const uint32_t meta_size = uint32_t((p.size + Size - 1) / Size);
  const emu::GroupRef ref = detail::tile_group(Size, Size);
  detail::record_create(ref, meta_rank, meta_size, line);
  return detail::access::make<thread_block_tile<Size, ParentT>>(ref, meta_rank, meta_size);
}

// Groups of the lanes that pass the same label (cooperative_groups::labeled_partition).
template <detail::WarpLevel Group, class Label>
coalesced_group labeled_partition(const Group& parent, Label label, int line = __builtin_LINE()) {
  if constexpr (std::is_same_v<Label, bool>) {
    return detail::split_by_label(parent.trace_ref(), GroupKind::Binary, label, label, line,
                                  "binary_partition()");
  } else {
    const uint64_t bits = detail::label_bits(label);
    return detail::split_by_label(parent.trace_ref(), GroupKind::Labeled, bits, uint32_t(bits),
                                  line, "labeled_partition()");
  }
}

// The lanes whose predicate is true, and those whose predicate is false.
template <detail::WarpLevel Group>
coalesced_group binary_partition(const Group& parent, bool pred, int line = __builtin_LINE()) {
  return detail::split_by_label(parent.trace_ref(), GroupKind::Binary, pred, pred, line,
                                "binary_partition()");
}

// stride_partition(parent, n): coop's own; CUDA 13's headers do not have it. The programming
// guide describes it as dealing the parent's threads round-robin into n groups, so rank r goes
// to group r % n. It is labeled_partition with the label thread_rank() % n; each group records
// GroupKind::Stride and its residue class as the group id.
template <detail::WarpLevel Group>
coalesced_group stride_partition(const Group& parent, unsigned int n,
                                 int line = __builtin_LINE()) {
  if (n == 0) emu::fault("stride_partition(parent, 0): n must be at least 1", uint16_t(line));
  const uint32_t residue = uint32_t(parent.thread_rank() % n);
  return detail::split_by_label(parent.trace_ref(), GroupKind::Stride, residue, residue, line,
                                "stride_partition()");
}

}  // namespace coop::cg
