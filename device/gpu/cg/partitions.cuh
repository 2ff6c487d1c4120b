// coop::cg under nvcc, part 4: partitions. cooperative_groups forms the group; the wrapper adds
// the trace identity the emulator computes the same way (emu/cg/partitions.hpp) and records each
// thread's rank, size, group id and meta group.
#pragma once

#include <cuda/std/type_traits>

#include "device/gpu/cg/warp_groups.cuh"

namespace coop::cg {
namespace detail {

// Trace identity of tiled_partition(parent, n) for a runtime n, following cooperative_groups'
// rules: a block is cut by thread rank (meta size rounds up); a tile into aligned sub-tiles
// (meta size parent / n); another warp-level group by rank into coalesced groups; a group no
// larger than n comes back unchanged.
__device__ __forceinline__ TraceId runtime_tile_id(const TraceId& p, uint32_t rank, uint32_t size,
                                                   uint32_t n) {
  const uint32_t base = rank & ~(n - 1);
  if (p.kind == GroupKind::Block)
    return tile_id(n, min(size - base, n), rank / n, (size + n - 1) / n);
  if (size <= n) return p;
  if (p.kind == GroupKind::Tile) return tile_id(n, min(size - base, n), rank / n, size / n);
  uint32_t mask = 0, seen = 0;
  for (uint32_t m = p.mask; m; m &= m - 1, ++seen)
    if (seen >= base && seen < base + n) mask |= 1u << (__ffs(m) - 1);
  return TraceId{GroupKind::Coalesced, mask, rank / n, (size + n - 1) / n, mask};
}

__device__ __forceinline__ coalesced_group labeled(const real::coalesced_group& c, GroupKind kind,
                                                   uint32_t id, int line) {
  const coalesced_group g(
      c, TraceId{kind, id, c.meta_group_rank(), c.meta_group_size(), mask_of(c)});
  record_create(g.trace_id(), c.thread_rank(), c.size(), line);
  return g;
}

template <class Label>
__device__ __forceinline__ uint32_t label_id(Label label) {
  if constexpr (::cuda::std::is_pointer_v<Label>) return uint32_t(reinterpret_cast<uintptr_t>(label));
  else return uint32_t(label);
}

}  // namespace detail

// Tiles of a runtime size (a power of two, at most 32) of a block, a tile or a coalesced group.
__device__ __forceinline__ thread_group tiled_partition(const thread_group& parent,
                                                        unsigned int tile_size,
                                                        int line = __builtin_LINE()) {
  const real::thread_group g = real::tiled_partition(parent.real_group(), tile_size);
  const detail::TraceId id = detail::runtime_tile_id(
      parent.trace_id(), uint32_t(parent.thread_rank()), uint32_t(parent.size()), tile_size);
  detail::record_create(id, uint32_t(g.thread_rank()), uint32_t(g.size()), line);
  return thread_group(g, id);
}
__device__ __forceinline__ thread_group tiled_partition(const thread_block& parent,
                                                        unsigned int tile_size,
                                                        int line = __builtin_LINE()) {
  return tiled_partition(thread_group(parent), tile_size, line);
}
__device__ __forceinline__ coalesced_group tiled_partition(const coalesced_group& parent,
                                                           unsigned int tile_size,
                                                           int line = __builtin_LINE()) {
  const real::coalesced_group c = real::tiled_partition(parent.real_group(), tile_size);
  detail::TraceId id = detail::runtime_tile_id(parent.trace_id(), parent.thread_rank(),
                                               parent.size(), tile_size);
  id.mask = detail::mask_of(c);
  detail::record_create(id, c.thread_rank(), c.size(), line);
  return coalesced_group(c, id);
}

// Tiles of a compile-time size of a block or of a larger tile (tiles of tiles, 64 and 128 too).
template <unsigned Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent,
                                                            int line = __builtin_LINE()) {
  const typename thread_block_tile<Size, ParentT>::real_tile t =
      real::tiled_partition<Size>(parent.real_group());
  const detail::TraceId id = detail::tile_id(Size, Size, t.meta_group_rank(), t.meta_group_size());
  detail::record_create(id, t.thread_rank(), Size, line);
  return thread_block_tile<Size, ParentT>(t, id);
}

// Groups of the lanes that pass the same label (cooperative_groups::labeled_partition).
template <class Group, class Label>
__device__ coalesced_group labeled_partition(const Group& parent, Label label,
                                             int line = __builtin_LINE()) {
  const real::coalesced_group c = real::labeled_partition(parent.real_group(), label);
  if constexpr (::cuda::std::is_same_v<Label, bool>)
    return detail::labeled(c, GroupKind::Binary, label, line);
  else
    return detail::labeled(c, GroupKind::Labeled, detail::label_id(label), line);
}

// The lanes whose predicate is true, and those whose predicate is false.
template <class Group>
__device__ coalesced_group binary_partition(const Group& parent, bool pred,
                                            int line = __builtin_LINE()) {
  const real::coalesced_group c = real::binary_partition(parent.real_group(), pred);
  return detail::labeled(c, GroupKind::Binary, pred, line);
}

// stride_partition(parent, n): coop's own; CUDA 13's headers do not have it. The programming
// guide describes it as dealing the parent's threads round-robin into n groups, so rank r goes
// to group r % n: labeled_partition with the label thread_rank() % n, recorded as
// GroupKind::Stride with the residue class as its group id.
template <class Group>
__device__ coalesced_group stride_partition(const Group& parent, unsigned int n,
                                            int line = __builtin_LINE()) {
  const unsigned int residue = unsigned(parent.thread_rank()) % n;
  const real::coalesced_group c = real::labeled_partition(parent.real_group(), residue);
  return detail::labeled(c, GroupKind::Stride, residue, line);
}

}  // namespace coop::cg
