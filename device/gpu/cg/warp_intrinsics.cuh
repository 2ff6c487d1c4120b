// coop's warp intrinsics under nvcc, part 7: __shfl*_sync, __ballot_sync, __any_sync, __all_sync
// and __syncwarp, traced. The lowering makes a program's unqualified calls of these calls of
// coop's (::coop::__shfl_sync...). Each runs the real intrinsic and records what the emulator
// records for it (device/emu/cg/warp_intrinsics.hpp): a call on the group of kind Warp whose id
// is the mask's lanes that exist in the caller's warp, ranked by lane among them. __activemask()
// stays CUDA's own: the emulator records nothing for it either.
//
// coop's own code must call the hardware intrinsics as ::__shfl_sync and so on: inside namespace
// coop an unqualified call would find these traced ones and record calls the program never made.
#pragma once

#include "device/gpu/cg/record.cuh"
#include "device/trace/shuffle_source.hpp"

namespace coop {
namespace detail {

// The lanes of `mask` that exist in the caller's warp (a partial last warp has fewer).
__device__ __forceinline__ uint32_t mask_in_warp(uint32_t mask) {
  const uint32_t first = cg::detail::block_thread_rank() & ~31u;
  return mask & cg::detail::low_mask(cg::detail::block_threads() - first);
}

// The Warp group of a mask, as the emulator names it: id and lane mask are the existing lanes.
__device__ __forceinline__ cg::detail::TraceId warp_mask_id(uint32_t mask) {
  return cg::detail::TraceId{GroupKind::Warp, mask, 0, 0, mask};
}
__device__ __forceinline__ uint32_t rank_in_mask(uint32_t mask) {
  return uint32_t(__popc(mask & cg::detail::lanes_below()));
}

// Records a shuffle of the lanes of `mask` that read lane `src` (the emulator's extra).
template <class T>
__device__ __forceinline__ T record_shfl(uint32_t mask, Op op, T var, T out, uint32_t src,
                                         int line) {
  const uint32_t m = mask_in_warp(mask);
  cg::detail::record_collective(warp_mask_id(m), rank_in_mask(m), uint32_t(__popc(m)), line, op,
                                var, out, src);
  return out;
}

// Records a vote: the input is the predicate as 0 or 1, the output what the emulator returns
// from the group's vote (a ballot by rank among the mask's lanes, any/all as 0 or 1).
__device__ __forceinline__ void record_vote(uint32_t m, Op op, int predicate, uint32_t out,
                                            int line) {
  cg::detail::record_collective(warp_mask_id(m), rank_in_mask(m), uint32_t(__popc(m)), line, op,
                                uint32_t(predicate ? 1u : 0u), out, 0u);
}

// The lane a raw shuffle of the calling lane reads, by the emulator's formula.
__device__ __forceinline__ uint32_t source_lane(Op op, uint32_t arg, int width) {
  return shuffle_source(op, cg::detail::lane_id(), arg, uint32_t(width));
}

}  // namespace detail

template <class T>
__device__ T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32,  // NOLINT
                         int line = __builtin_LINE()) {
  const T out = ::__shfl_sync(mask, var, src_lane, width);
  const uint32_t src = detail::source_lane(Op::Shfl, uint32_t(src_lane), width);
  return detail::record_shfl(mask, Op::Shfl, var, out, src, line);
}
template <class T>
__device__ T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,  // NOLINT
                              int line = __builtin_LINE()) {
  const T out = ::__shfl_down_sync(mask, var, delta, width);
  return detail::record_shfl(mask, Op::ShflDown, var, out,
                             detail::source_lane(Op::ShflDown, delta, width), line);
}
template <class T>
__device__ T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,  // NOLINT
                            int line = __builtin_LINE()) {
  const T out = ::__shfl_up_sync(mask, var, delta, width);
  return detail::record_shfl(mask, Op::ShflUp, var, out,
                             detail::source_lane(Op::ShflUp, delta, width), line);
}
template <class T>
__device__ T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,  // NOLINT
                             int line = __builtin_LINE()) {
  const T out = ::__shfl_xor_sync(mask, var, lane_mask, width);
  return detail::record_shfl(mask, Op::ShflXor, var, out,
                             detail::source_lane(Op::ShflXor, uint32_t(lane_mask), width), line);
}

// The ballot returns lanes, as CUDA's does; the trace holds it by rank among the mask's lanes,
// as for a group's ballot (the emulator records the group vote it computes the lanes from).
__device__ __forceinline__ unsigned __ballot_sync(unsigned mask, int predicate,  // NOLINT
                                                  int line = __builtin_LINE()) {
  const unsigned lanes = ::__ballot_sync(mask, predicate);
  const uint32_t m = detail::mask_in_warp(mask);
  uint32_t by_rank = 0, rest = m;
  for (uint32_t rank = 0; rest; ++rank, rest &= rest - 1)
    if (lanes & rest & -rest) by_rank |= 1u << rank;
  detail::record_vote(m, Op::Ballot, predicate, by_rank, line);
  return lanes;
}
__device__ __forceinline__ int __any_sync(unsigned mask, int predicate,  // NOLINT
                                          int line = __builtin_LINE()) {
  const int out = ::__any_sync(mask, predicate) != 0;
  detail::record_vote(detail::mask_in_warp(mask), Op::Any, predicate, uint32_t(out), line);
  return out;
}
__device__ __forceinline__ int __all_sync(unsigned mask, int predicate,  // NOLINT
                                          int line = __builtin_LINE()) {
  const int out = ::__all_sync(mask, predicate) != 0;
  detail::record_vote(detail::mask_in_warp(mask), Op::All, predicate, uint32_t(out), line);
  return out;
}

// A barrier of the mask's lanes, recorded with its arrival and departure times.
__device__ __forceinline__ void __syncwarp(unsigned mask = 0xffffffffu,  // NOLINT
                                           int line = __builtin_LINE()) {
  const uint32_t m = detail::mask_in_warp(mask);
  cg::detail::timed(EventKind::Barrier, detail::warp_mask_id(m), detail::rank_in_mask(m),
                    uint32_t(__popc(m)), line, 0, [mask] { ::__syncwarp(mask); });
}

}  // namespace coop
