// Warp-level collectives of a 32-thread tile: values moving lane to lane with the four shuffles,
// votes (any, all, ballot), matches (match_any, match_all), and the shfl_down tree reduction.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::warp_collectives {

constexpr int kSlots = 10;  // results per lane in lanes_move

// Every lane starts with one value (by default 100 + its lane, so each number says where it came
// from) and records what each collective handed back to it.
__global__ void lanes_move(const int* in, int* out, int src, int delta, int lane_mask) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  int* o = out + i * kSlots;
  o[0] = warp.shfl(v, src);            // every lane reads lane src
  o[1] = warp.shfl_up(v, delta);       // lane l reads lane l - delta; lanes below delta keep v
  o[2] = warp.shfl_down(v, delta);     // lane l reads lane l + delta; lanes past 31 - delta keep v
  o[3] = warp.shfl_xor(v, lane_mask);  // lane l reads lane l ^ lane_mask: pairs swap
  // Votes: each lane puts in a yes or no and everyone gets the same answer back.
  o[4] = warp.any(v == 117);
  o[5] = warp.all(v >= 100);
  o[6] = int(warp.ballot(v % 2 == 0));  // bit l is lane l's vote
  // Matches: which lanes hold the same key as mine?
  const int key = v % 4;
  o[7] = int(warp.match_any(key));
  int all_same = 0;
  o[8] = int(warp.match_all(key, all_same));
  o[9] = all_same;
}

// The classic warp sum. Each step lane l adds the value `offset` lanes above it; after five
// steps (offsets 16, 8, 4, 2, 1) lane 0 holds the sum of all 32. A static tile knows its size at
// compile time, so the loop unrolls and no shared memory or barrier is needed.
__global__ void warp_sum(const int* in, int* partial, int* sums) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int offset = warp.size() / 2; offset > 0; offset /= 2) v += warp.shfl_down(v, offset);
  partial[i] = v;  // only lane 0's value is the whole sum; the others hold partial sums
  if (warp.thread_rank() == 0) sums[i / 32] = v;
}

}  // namespace coop::lessons::warp_collectives
