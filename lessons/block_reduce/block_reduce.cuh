// Block reduction: every block sums its slice of the input with a binary tree in shared memory,
// then one thread per group adds the partial sum to the total with atomicAdd.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::block_reduce {

constexpr int kMaxBlock = 1024;

// Binary-tree sum over any group. Each round, the lower half of the group adds in the value
// held by its partner in the upper half; after log2(size) rounds rank 0 holds the group's sum.
// Taking the group as a parameter makes the function correct for a block or a 32-thread tile.
__device__ float tree_sum(cg::thread_group g, float* temp, float val) {
  const int rank = g.thread_rank();
  for (int half = int(g.size()) / 2; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // only rank 0 holds the group's sum
}

// One tree per block: block_sums[b] is block b's sum; total accumulates all of them.
__global__ void reduce_block(const float* input, float* block_sums, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float sum = tree_sum(block, temp, input[i]);
  if (block.thread_rank() == 0) {
    block_sums[blockIdx.x] = sum;
    atomicAdd(total, sum);
  }
}

// One tree per 32-thread tile: each tile works in its own 32-float slice of temp and syncs
// only its own 32 threads. tile_sums[t] is tile t's sum (t counts tiles across the grid).
__global__ void reduce_tiles(const float* input, float* tile_sums, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* slice = temp + block.thread_rank() / 32 * 32;
  const float sum = tree_sum(tile32, slice, input[i]);
  if (tile32.thread_rank() == 0) {
    tile_sums[i / 32] = sum;
    atomicAdd(total, sum);
  }
}

}  // namespace coop::lessons::block_reduce
