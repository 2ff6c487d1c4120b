// reduce and scans over a whole thread_block: coop's own, since CUDA 13's cooperative_groups
// only reduce and scan tiles and coalesced groups (the programming guide shows block-wide use).
// The combination order is fixed so the emulator can reproduce floating-point results bit for bit
// (emu/cg/collectives.hpp, Shape::Block):
//   reduce: each warp folds its lanes with a shfl_down tree (offsets 16, 8, 4, 2, 1; lane l takes
//           lane l + offset when that lane exists); warp 0 folds the warp results the same way.
//   scans:  each warp runs a Hillis-Steele scan (shfl_up 1, 2, 4, 8, 16; own value first);
//           warp 0 scans the warp totals the same way; lane values then combine as
//           op(own, total of the warps before). Exclusive scans shift by one lane and give rank 0
//           a value-initialized T, as cooperative_groups does.
// Three __syncthreads() separate the phases, so a block may call these back to back.
#pragma once

#include "device/gpu/cg/record.cuh"

namespace coop::cg::detail {

template <class T, class Fn>
__device__ T warp_fold_down(T v, uint32_t lane, uint32_t count, uint32_t mask, const Fn& fn) {
  for (uint32_t offset = 16; offset > 0; offset >>= 1) {
    const T other = ::__shfl_down_sync(mask, v, offset);
    if (lane + offset < count) v = fn(v, other);
  }
  return v;
}

template <class T, class Fn>
__device__ T warp_scan_up(T v, uint32_t lane, uint32_t mask, const Fn& fn) {
  for (uint32_t d = 1; d < 32; d <<= 1) {
    const T other = ::__shfl_up_sync(mask, v, d);
    if (lane >= d) v = fn(v, other);
  }
  return v;
}

template <class T, class Fn>
__device__ T block_reduce(T v, const Fn& fn) {
  __shared__ T scratch[33];
  const uint32_t n = block_threads(), rank = block_thread_rank();
  const uint32_t lane = rank % 32, warp = rank / 32, warps = (n + 31) / 32;
  const uint32_t count = min(32u, n - warp * 32);
  v = warp_fold_down(v, lane, count, low_mask(count), fn);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T part = lane < warps ? scratch[lane] : T{};
    part = warp_fold_down(part, lane, warps, low_mask(count), fn);
    if (lane == 0) scratch[32] = part;
  }
  __syncthreads();
  const T total = scratch[32];
  __syncthreads();
  return total;
}

template <class T, bool Exclusive, class Fn>
__device__ T block_scan(T v, const Fn& fn) {
  __shared__ T scratch[32];
  const uint32_t n = block_threads(), rank = block_thread_rank();
  const uint32_t lane = rank % 32, warp = rank / 32, warps = (n + 31) / 32;
  const uint32_t count = min(32u, n - warp * 32), mask = low_mask(count);
  const T inclusive = warp_scan_up(v, lane, mask, fn);
  if (lane == count - 1) scratch[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    T total = lane < warps ? scratch[lane] : T{};
    total = warp_scan_up(total, lane, mask, fn);
    if (lane < warps) scratch[lane] = total;
  }
  __syncthreads();
  const T before = warp > 0 ? scratch[warp - 1] : T{};
  T result;
  if (!Exclusive) {
    result = warp == 0 ? inclusive : fn(inclusive, before);
  } else {
    const T shifted = ::__shfl_up_sync(mask, inclusive, 1);
    if (lane == 0) result = warp == 0 ? T{} : before;
    else
      result = warp == 0 ? shifted : fn(shifted, before);
  }
  __syncthreads();
  return result;
}

}  // namespace coop::cg::detail
