// Thread block clusters (compute capability 9.0): the blocks of a cluster are scheduled at the
// same time on neighbouring SMs, can wait for each other with cluster.sync(), and can read and
// write each other's shared memory (distributed shared memory) through map_shared_rank.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::clusters {

constexpr int kMaxBlock = 1024;
constexpr int kMaxBinsPerBlock = 1024;

// A ring: every block fills its slice of shared memory, then each thread reads the value at its
// own position in the next block's slice (ranks within the cluster, the last wrapping to 0).
__global__ void ring_exchange(const int* input, int* from_next, int* ranks) {
  __shared__ int slice[kMaxBlock];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  const unsigned i = blockIdx.x * blockDim.x + t;
  slice[t] = input[i];
  cluster.sync();  // every block of the cluster has filled its slice
  const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  int* next_slice = cluster.map_shared_rank(slice, next);
  from_next[i] = traced(next_slice[t]);
  ranks[i] = cluster.block_rank();
  cluster.sync();  // stay until the previous block has read our slice: exiting would free it
}

// A histogram whose bins are spread over the cluster: block r keeps bins r * per_block to
// (r + 1) * per_block - 1 in its shared memory. Every thread adds 1 to its value's bin in
// whichever block keeps it; then each block adds the bins it keeps to the global result.
__global__ void cluster_histogram(const int* values, int* bins, int per_block) {
  __shared__ int kept[kMaxBinsPerBlock];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  const int t = int(block.thread_rank()), threads = int(block.size());
  for (int b = t; b < per_block; b += threads) kept[b] = 0;
  cluster.sync();  // every bin of the cluster is zero before anyone adds to it
  const int v = values[blockIdx.x * blockDim.x + t];
  int* keeper = cluster.map_shared_rank(kept, v / per_block);
  atomicAdd(&keeper[v % per_block], 1);
  cluster.sync();  // every add into this block's bins has landed
  const int first = int(cluster.block_rank()) * per_block;
  for (int b = t; b < per_block; b += threads) atomicAdd(&bins[first + b], kept[b]);
}

}  // namespace coop::lessons::clusters
