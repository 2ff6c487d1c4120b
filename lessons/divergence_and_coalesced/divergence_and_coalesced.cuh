// Divergence and coalesced_threads(): the group a warp's threads form inside a branch, its ranks,
// and warp-aggregated atomics (one atomic per group instead of one per thread).
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::divergence_and_coalesced {

constexpr int kSlots = 3;  // results per thread in branch_ranks

// Only threads whose value is below the threshold enter the branch. Inside it,
// coalesced_threads() is the group of this warp's threads that are executing it together, and
// thread_rank() numbers only them: 0, 1, 2, ... in lane order, with no gaps.
__global__ void branch_ranks(const int* in, int threshold, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int* o = out + i * kSlots;
  if (in[i] < threshold) {
    cg::coalesced_group active = cg::coalesced_threads();
    o[0] = active.thread_rank();
    o[1] = active.size();
    o[2] = active.shfl(lane, 0);  // the warp lane of rank 0: names the group
  }
}

// Stream compaction, the plain way: every kept value costs one atomic on the one counter.
__global__ void keep_per_thread(const int* in, int threshold, int* count, int* kept) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < threshold) {
    const int slot = atomicAdd(count, 1);
    kept[slot] = in[i];
  }
}

// The same with a warp-aggregated atomic: the threads that arrive together reserve all their
// slots with one atomicAdd by rank 0, which then hands the first slot to the others.
__global__ void keep_aggregated(const int* in, int threshold, int* count, int* kept) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < threshold) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(count, int(active.size()));
    base = active.shfl(base, 0);
    kept[base + active.thread_rank()] = in[i];
  }
}

}  // namespace coop::lessons::divergence_and_coalesced
