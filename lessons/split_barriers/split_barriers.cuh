// Split barriers: barrier_arrive says "my part is ready", barrier_wait says "now I need
// everyone's". Work placed between the two overlaps the wait for the slower threads.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::split_barriers {

constexpr int kMaxBlock = 1024;

// Work of uneven length: the number of Collatz steps from x down to 1. Every step is counted
// in `progress` with a traced store, so the view shows how long each thread works.
__device__ int collatz(int x, int* progress) {
  int steps = 0;
  while (x != 1) {
    x = x % 2 ? 3 * x + 1 : x / 2;
    traced(progress[0]) = ++steps;
  }
  return steps;
}

// Each thread computes and publishes its part, arrives, does work of its own, waits, and only
// then reads its neighbour's part.
__global__ void block_split(const int* in, int* out, int* produced, int* local) {
  __shared__ int published[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  published[r] = collatz(in[i], produced + i);  // my part: quick for some threads, slow for others
  cg::thread_block::arrival_token token = block.barrier_arrive();  // my part is published
  collatz(r + 2, local + i);              // meanwhile, work that needs nobody else
  block.barrier_wait(std::move(token));  // now every part is published
  traced(out[i]) = published[(r + 1) % n];
}

// The same pattern across a cluster (sm_90 and newer): each block publishes into its own shared
// memory; after the wait it reads the next block's copy through distributed shared memory.
__global__ void cluster_split(const int* in, int* out, int* produced, int* local) {
  __shared__ int published[kMaxBlock];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), i = grid.thread_rank();
  published[r] = collatz(in[i], produced + i);
  auto token = cluster.barrier_arrive();   // my block's part is published
  collatz(r + 2, local + i);                // meanwhile, work that needs no other block
  cluster.barrier_wait(std::move(token));  // every block of the cluster has published
  const int next = (cluster.block_rank() + 1) % cluster.num_blocks();
  const int* neighbour = cluster.map_shared_rank(published, next);
  traced(out[i]) = neighbour[r];
  cluster.sync();  // my shared memory must outlive my neighbour's reads
}

// Hazard (emulator only): a collective on the block while its split barrier is open.
__global__ void sync_inside_split(const int* in, int* out, int* produced, int* local) {
  __shared__ int published[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  published[r] = collatz(in[i], produced + i);
  auto token = block.barrier_arrive();
  block.sync();  // not allowed: this block's split barrier is still open
  collatz(r + 2, local + i);
  block.barrier_wait(std::move(token));
  traced(out[i]) = published[(r + 1) % n];
}

// Hazard (emulator only): reusing a slot right after barrier_wait, as if every thread had
// already passed its own wait. The last thread is slow on purpose: its local work lasts until
// every other thread has finished the whole round.
__global__ void reuse_after_wait(const int* in, int* out, int* /*produced*/, int* local) {
  __shared__ int published[kMaxBlock];
  __shared__ int finished;
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  if (r == 0) finished = 0;
  published[r] = in[i];
  block.sync();  // finished is 0 for everyone
  auto token = block.barrier_arrive();
  if (r == n - 1)
    while (atomicAdd(&finished, 0) < n - 1) traced(local[i]) = traced(local[i]) + 1;  // slow
  block.barrier_wait(std::move(token));
  traced(out[i]) = published[(r + 1) % n];  // the last thread reads slot 0...
  published[r] = -in[i];                    // ...which thread 0 may already have reused
  atomicAdd(&finished, 1);
}

}  // namespace coop::lessons::split_barriers
