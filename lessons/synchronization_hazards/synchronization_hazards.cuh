// Synchronization and its hazards: what a barrier promises, how a library function can hide
// one, and why the group should be a parameter.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::synchronization_hazards {

constexpr int kMaxBlock = 1024;

// One barrier, three spellings. Each thread fills its slot, waits, then reads its neighbour's:
// without the barrier the neighbour's slot could still hold an old value.
__global__ void three_spellings(const int* in, int* out) {
  __shared__ int slot[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads();
  slot[r] = in[grid.thread_rank()];
  block.sync();  // the group's own barrier
  const int right = slot[(r + 1) % n];
  __syncthreads();  // the same barrier, spelled the classic way
  slot[r] = right;
  cg::sync(block);  // and once more, as the free function
  traced(out[grid.thread_rank()]) = slot[(r + 1) % n];
}

// A library sum written for whole blocks. It waits with __syncthreads(), so every thread of
// the block must call it, but nothing in its signature says so.
__device__ int block_sum(int* scratch, int value) {
  scratch[threadIdx.x] = value;
  __syncthreads();  // the whole block, whoever called
  int total = 0;
  for (int k = 0; k < int(blockDim.x); ++k) total += scratch[k];
  __syncthreads();  // nobody refills scratch while others still read it
  return total;
}

// The same sum with the group as a parameter: the caller says who takes part.
__device__ int group_sum(const cg::thread_group& g, int* scratch, int value) {
  const int rank = g.thread_rank(), n = g.size();
  scratch[rank] = value;
  g.sync();  // only the members of g
  int total = 0;
  for (int k = 0; k < n; ++k) total += scratch[k];
  g.sync();
  return total;
}

// Safe: the whole block sums, then the lower half sums its warps. The warp tiles are made by
// every thread before the branch; whole tiles take it, and each one waits only for itself.
__global__ void half_block_fixed(const int* in, int* block_sums, int* warp_sums) {
  __shared__ int scratch[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_group warp = cg::tiled_partition(block, 32);
  const int r = block.thread_rank(), value = in[grid.thread_rank()];
  const int total = group_sum(block, scratch, value);
  if (r == 0) traced(block_sums[grid.block_rank()]) = total;
  if (r < int(block.num_threads()) / 2) {
    const int warp_total = group_sum(warp, scratch + r / 32 * 32, value);
    traced(warp_sums[grid.thread_rank()]) = warp_total;
  }
}

// Hazard (emulator only): the lower half calls the block-wide library. Its __syncthreads()
// waits for the upper half, which has already left the kernel.
__global__ void half_block_deadlock(const int* in, int* block_sums, int* /*warp_sums*/) {
  __shared__ int scratch[kMaxBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < blockDim.x / 2) {
    const int total = block_sum(scratch, in[i]);  // deadlock: half the block never arrives
    if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
  }
}

// Hazard (emulator only): the partition is made inside the branch. Partitioning is collective:
// every thread of the parent must take part, and half of them never get here.
__global__ void partition_in_branch(const int* in, int* /*block_sums*/, int* warp_sums) {
  __shared__ int scratch[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank();
  if (r < int(block.num_threads()) / 2) {
    cg::thread_group late_warp = cg::tiled_partition(block, 32);  // too late: half are gone
    const int warp_total = group_sum(late_warp, scratch + r / 32 * 32, in[grid.thread_rank()]);
    traced(warp_sums[grid.thread_rank()]) = warp_total;  // nobody waited for the upper half
  }
}

// Hazard: three_spellings without its first barrier. A thread reads its neighbour's slot right
// after writing its own, so whether the neighbour has written yet is up to the schedule: a data
// race. It never hangs, so it runs on a GPU too; only the emulator's detector sees the race.
__global__ void missing_barrier(const int* in, int* out) {
  __shared__ int slot[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  slot[r] = -1;  // "not written yet": every slot holds it once the block passes the barrier
  block.sync();
  slot[r] = in[i];                          // the write
  const int neighbour = slot[(r + 1) % n];  // the read: no barrier since the neighbour's write
  traced(out[i]) = neighbour;
}

}  // namespace coop::lessons::synchronization_hazards
