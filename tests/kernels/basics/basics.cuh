// Small kernels that pin down the emulator's execution model (and run on the GPU too).
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::basics {

// Every thread adds 1 to counter[0] without an atomic: lanes of a warp read together, then write
// together, so updates are lost exactly as on a GPU.
__global__ void racy_increment(int* counter) {
  traced(counter[0]) = traced(counter[0]) + 1;
}

// The same with atomicAdd: nothing is lost; each thread's old value is its ticket.
__global__ void atomic_increment(int* counter, int* tickets) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  tickets[id] = atomicAdd(counter, 1);
}

// Only even threads reach the barrier: a deadlock the emulator must report, not hang on.
__global__ void sync_in_branch(int* out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() % 2 == 0) block.sync();
  out[block.thread_rank()] = 1;
}

// Warp-tile collectives: each lane gets values from other lanes.
__global__ void tile_shuffles(int* down, int* xor_out, unsigned* ballot, int* sum) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = id * 3 + 1;
  down[id] = tile.shfl_down(v, 1);
  xor_out[id] = tile.shfl_xor(v, 5);
  ballot[id] = tile.ballot(v % 4 == 0);
  sum[id] = cg::reduce(tile, v, cg::plus<int>());
}

// A block of shared memory per block: each block writes its own id and reads it back after sync.
__global__ void shared_per_block(int* out) {
  __shared__ int mine[4];
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 4) mine[block.thread_rank()] = blockIdx.x * 10 + block.thread_rank();
  block.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = mine[threadIdx.x % 4];
}

}  // namespace coop::lessons::basics
