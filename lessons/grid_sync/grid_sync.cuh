// Grid-wide synchronization: a whole array summed in one kernel. Each block reduces its slice and
// writes a partial sum; grid.sync() waits until every block has done so; then the partial sums
// are added up, by one thread or by one 32-thread tile.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::grid_sync {

constexpr int kMaxBlock = 1024;

// Binary tree over group g, halving from `half`. Each round the lower `half` ranks add the value
// `half` above them. Correct only when half starts at g.size() / 2: a larger start sends ranks
// to partners outside the group, whose temp slots hold whatever was left there.
__device__ float tree_from(const cg::thread_group& g, float* temp, float val, unsigned half) {
  const unsigned rank = g.thread_rank();
  for (; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // rank 0 holds the sum
}

// final_step 0: thread 0 of the grid adds the partial sums in order.
// final_step 1: the first 32 threads of block 0 form a tile; each adds every 32nd partial sum,
//               then the tile's tree starts at tile32.size() / 2.
// final_step 2: the same tile, but the tree starts at blockDim.x / 2 as in the seed.
__global__ void reduce_grid_sync(const float* input, float* partial, float* total, int final_step) {
  __shared__ float temp[kMaxBlock];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  const float block_sum = tree_from(block, temp, input[grid.thread_rank()], block.size() / 2);
  if (block.thread_rank() == 0) partial[blockIdx.x] = block_sum;

  grid.sync();  // every block has written its partial sum, and all of them are visible

  if (final_step == 0) {
    if (grid.thread_rank() == 0) {
      float sum = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      *total = sum;
    }
    return;
  }
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  if (blockIdx.x == 0 && block.thread_rank() < 32) {
    float v = 0.0f;
    for (unsigned b = tile32.thread_rank(); b < gridDim.x; b += 32) v += partial[b];
    const unsigned first_half = final_step == 1 ? tile32.size() / 2 : blockDim.x / 2;
    const float sum = tree_from(tile32, temp, v, first_half);
    if (tile32.thread_rank() == 0) *total = sum;
  }
}

}  // namespace coop::lessons::grid_sync
