// CUDA's warp intrinsics on the emulator: __shfl*_sync, __any/__all/__ballot_sync, __activemask
// and __syncwarp (the match and reduce ones are in warp_match_reduce.hpp). Each is a collective of the lanes its mask names (a warp-level group of kind
// Warp, recorded like a coalesced group's call), so a lane missing from the call deadlocks as on
// a GPU, and a source lane outside the mask is an error named at its line.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "device/emu/cg/warp_groups.hpp"
#include "device/trace/shuffle_source.hpp"

namespace coop::cg::detail {

// The lanes of `mask` that exist in the caller's warp (a partial last warp has fewer).
inline uint32_t mask_in_warp(uint32_t mask) {
  const uint32_t n = emu::this_thread().warp_size_here;
  return mask & (n >= 32 ? ~0u : (1u << n) - 1);
}

inline emu::GroupRef mask_group(uint32_t mask, const char* what, int line) {
  const uint32_t lane = emu::this_thread().lane;
  const uint32_t m = mask_in_warp(mask);
  if (!(m >> lane & 1u))
    emu::fault(std::string(what) + ": the calling lane " + std::to_string(lane) +
                   " is not in its mask",
               uint16_t(line));
  return warp_group(GroupKind::Warp, m, m);
}

// The lanes of `warp_mask` whose ranks (their order among its lanes) are set in `by_rank`.
inline uint32_t lanes_of_ranks(uint32_t by_rank, uint32_t warp_mask) {
  uint32_t lanes = 0;
  for (uint32_t rank = 0; warp_mask; ++rank, warp_mask &= warp_mask - 1)
    if (by_rank >> rank & 1u) lanes |= warp_mask & -warp_mask;
  return lanes;
}

// A shuffle from lane `src` (already within the caller's segment) of the mask's lanes; one a
// library makes inside its own code (`traced` false: CUB's shuffles) is not in the trace.
template <class T>
T shfl_from_lane(uint32_t mask, T var, uint32_t src, Op op, const char* what, int line,
                 bool traced = true) {
  const emu::GroupRef g = mask_group(mask, what, line);
  if (!(g.warp_mask >> src & 1u))
    emu::fault(std::string(what) + " reads lane " + std::to_string(src) +
                   ", which is not in the mask (its value is undefined on a GPU)",
               uint16_t(line));
  // Per-lane sources: no shared argument, so lanes may read different lanes.
  return collective(g, line, op, what, var, resolve_shfl, rank_in_mask(g.warp_mask, src), 0, src,
                    nullptr, traced);
}

// The lane a raw shuffle of the calling lane reads.
inline uint32_t source_lane(Op op, uint32_t arg, int width) {
  return shuffle_source(op, emu::this_thread().lane, arg, uint32_t(width));
}

}  // namespace coop::cg::detail

namespace coop {

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32,  // NOLINT: CUDA's name
              int line = __builtin_LINE()) {
  const uint32_t src = cg::detail::source_lane(Op::Shfl, uint32_t(src_lane), width);
  return cg::detail::shfl_from_lane(mask, var, src, Op::Shfl, "__shfl_sync()", line);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,  // NOLINT
                   int line = __builtin_LINE()) {
  const uint32_t src = cg::detail::source_lane(Op::ShflDown, delta, width);
  return cg::detail::shfl_from_lane(mask, var, src, Op::ShflDown, "__shfl_down_sync()", line);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,  // NOLINT
                 int line = __builtin_LINE()) {
  const uint32_t src = cg::detail::source_lane(Op::ShflUp, delta, width);
  return cg::detail::shfl_from_lane(mask, var, src, Op::ShflUp, "__shfl_up_sync()", line);
}
// A partner beyond the segment leaves the caller's own value, as on a GPU.
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,  // NOLINT
                  int line = __builtin_LINE()) {
  const uint32_t src = cg::detail::source_lane(Op::ShflXor, uint32_t(lane_mask), width);
  return cg::detail::shfl_from_lane(mask, var, src, Op::ShflXor, "__shfl_xor_sync()", line);
}

// Votes: bit k of a ballot is lane k (not rank k, as for a group's ballot).
inline unsigned __ballot_sync(unsigned mask, int predicate,  // NOLINT
                              int line = __builtin_LINE()) {
  const emu::GroupRef g = cg::detail::mask_group(mask, "__ballot_sync()", line);
  const uint32_t by_rank = cg::detail::warp_collectives::vote_on(g, Op::Ballot, predicate, line);
  return cg::detail::lanes_of_ranks(by_rank, g.warp_mask);
}
inline int __any_sync(unsigned mask, int predicate, int line = __builtin_LINE()) {  // NOLINT
  return int(cg::detail::warp_collectives::vote_on(
      cg::detail::mask_group(mask, "__any_sync()", line), Op::Any, predicate, line));
}
inline int __all_sync(unsigned mask, int predicate, int line = __builtin_LINE()) {  // NOLINT
  return int(cg::detail::warp_collectives::vote_on(
      cg::detail::mask_group(mask, "__all_sync()", line), Op::All, predicate, line));
}

// The lanes of the warp that execute this call together.
inline unsigned __activemask(int line = __builtin_LINE()) {  // NOLINT
  return emu::step_plain(uint16_t(line), Op::Ballot).mask;
}

// A barrier of the mask's lanes (and, as on Volta and later, a memory fence among them).
inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE()) {  // NOLINT
  cg::detail::barrier(cg::detail::mask_group(mask, "__syncwarp()", line), line, "__syncwarp()");
}

}  // namespace coop
