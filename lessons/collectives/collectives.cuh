// Collectives of a warp-sized tile: reduce with its six operators, scans, invoke_one, and the
// same tile sum three ways (hardware reduce, a shuffle loop, a reduce of 8-byte values) to time.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::collectives {

constexpr int kOps = 7;       // results per lane in reduce_six_ways
constexpr int kMaxCount = 4;  // pack_runs: each lane emits 0..3 items, so a tile fills < 32 * 4

// Every lane hands in one value; every lane gets back the whole tile's answer, six ways.
__global__ void reduce_six_ways(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  int* o = out + i * kOps;
  o[0] = cg::reduce(tile, v, cg::plus<int>());
  o[1] = cg::reduce(tile, v, cg::less<int>());
  o[2] = cg::reduce(tile, v, cg::greater<int>());
  o[3] = cg::reduce(tile, v, cg::bit_and<int>());
  o[4] = cg::reduce(tile, v, cg::bit_or<int>());
  o[5] = cg::reduce(tile, v, cg::bit_xor<int>());
  // A scan keeps the partial answers: lane r gets the maximum of lanes 0..r.
  o[6] = cg::inclusive_scan(tile, v, cg::greater<int>());
}

// Each lane wants to write `count` copies of its rank into one packed list per tile. The
// exclusive scan of the counts is where its run starts, the inclusive scan where it ends.
__global__ void pack_runs(const int* counts, int* starts, int* ends, int* packed) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int count = counts[i];
  const int start = cg::exclusive_scan(tile, count);
  const int end = cg::inclusive_scan(tile, count);
  starts[i] = start;
  ends[i] = end;
  int* list = packed + i / 32 * 32 * kMaxCount;
  for (int k = start; k < end; ++k) list[k] = tile.thread_rank();
}

// One lane of each tile does a serial job for the tile; which lane is the hardware's choice.
__global__ void one_for_all(int* chosen, int* runs, int* heard) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = i / 32;  // this tile's index across the grid
  cg::invoke_one(tile, [&] {
    chosen[t] = tile.thread_rank();
    runs[t] = runs[t] + 1;  // plain read-modify-write: safe only because one lane runs it
  });
  // The same election, and every lane receives what the chosen lane returned.
  heard[i] = cg::invoke_one_broadcast(tile, [&] { return int(tile.thread_rank()); });
}

// [SECTION] The same tile sum three ways, for timing on a GPU (rounds dependent reductions).

// cooperative_groups' reduce of 4-byte integers: one redux.sync instruction on cc 8.0+.
__global__ void sum_hardware(const unsigned* in, unsigned* out, int rounds) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int r = 0; r < rounds; ++r)
    v = cg::reduce(tile, v + tile.thread_rank(), cg::plus<unsigned>());
  out[i] = v;
}

// The software way: five shfl_xor steps; after step k every lane holds the sum of 2^k lanes.
__device__ unsigned sum_by_shuffles(const cg::thread_block_tile<32>& tile, unsigned v) {
  for (int offset = 16; offset > 0; offset /= 2) v += tile.shfl_xor(v, offset);
  return v;
}

__global__ void sum_shuffles(const unsigned* in, unsigned* out, int rounds) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int r = 0; r < rounds; ++r) v = sum_by_shuffles(tile, v + tile.thread_rank());
  out[i] = v;
}

// The same reduce on 8-byte integers: no hardware instruction, cooperative_groups shuffles.
__global__ void sum_wide(const unsigned* in, unsigned* out, int rounds) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long v = in[i];
  for (int r = 0; r < rounds; ++r)
    v = cg::reduce(tile, v + tile.thread_rank(), cg::plus<unsigned long long>());
  out[i] = unsigned(v);  // the low 32 bits equal the 4-byte sum's (addition modulo 2^32)
}

}  // namespace coop::lessons::collectives
