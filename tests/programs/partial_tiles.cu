// A block of 120 threads cut into tiles of 32: three full tiles and a last one of 24 threads.
// The full tiles reduce with cg::reduce; the partial one with its active threads, since its
// missing lanes have no values. A tail loop partitions the threads still in it with
// binary_partition while those that ran out of items have already returned.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kBlock = 120;

__global__ void tile_sums(const int* in, int* sums, int* shape, int* odd_counts, int len) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  cg::thread_group runtime_tile = cg::tiled_partition(block, 32);
  const int v = in[blockIdx.x * kBlock + block.thread_rank()];
  const int t = blockIdx.x * 4 + tile.meta_group_rank();
  int sum;
  if (runtime_tile.size() == 32) {
    sum = cg::reduce(tile, v, cg::plus<int>());
  } else {
    cg::coalesced_group active = cg::coalesced_threads();
    sum = cg::reduce(active, v, cg::plus<int>());
  }
  const unsigned votes = tile.ballot(1);
  if (tile.thread_rank() == 0) {
    sums[t] = sum;
    shape[t * 4 + 0] = int(tile.num_threads());
    shape[t * 4 + 1] = int(runtime_tile.size());
    shape[t * 4 + 2] = int(tile.meta_group_size());
    shape[t * 4 + 3] = __popc(votes);
  }
  tile.sync();
  // Each tile walks `len` items of its own, one per thread and round; in the last round only
  // some lanes have an item, and the others have returned.
  const int* items = in + t * len;
  for (int i = int(tile.thread_rank()); i < len; i += int(runtime_tile.size())) {
    const bool odd = items[i] % 2 != 0;
    cg::coalesced_group side = cg::binary_partition(tile, odd);
    if (odd && side.thread_rank() == 0) atomicAdd(&odd_counts[t], int(side.num_threads()));
  }
}

int main() {
  const int blocks = 2, tiles = blocks * 4, len = 45;
  static int h_in[tiles * len + blocks * kBlock], h_sums[tiles], h_shape[tiles * 4], h_odd[tiles];
  const int n = sizeof h_in / sizeof h_in[0];
  for (int i = 0; i < n; ++i) h_in[i] = (i * 29 + 3) % 17;
  int *d_in, *d_sums, *d_shape, *d_odd;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_sums, sizeof h_sums);
  cudaMalloc(&d_shape, sizeof h_shape);
  cudaMalloc(&d_odd, sizeof h_odd);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  cudaMemset(d_odd, 0, sizeof h_odd);
  tile_sums<<<blocks, kBlock>>>(d_in, d_sums, d_shape, d_odd, len);
  cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_shape, d_shape, sizeof h_shape, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_odd, d_odd, sizeof h_odd, cudaMemcpyDeviceToHost);
  int bad = cudaGetLastError() != cudaSuccess;
  for (int t = 0; t < tiles; ++t) {
    const int b = t / 4, first = (t % 4) * 32, count = t % 4 == 3 ? kBlock - 96 : 32;
    int sum = 0, odd = 0;
    for (int k = 0; k < count; ++k) sum += h_in[b * kBlock + first + k];
    for (int k = 0; k < len; ++k) odd += h_in[t * len + k] % 2;
    bad += h_sums[t] != sum;
    bad += h_shape[t * 4 + 0] != 32 || h_shape[t * 4 + 1] != count;
    bad += h_shape[t * 4 + 2] != 4 || h_shape[t * 4 + 3] != count;
    bad += h_odd[t] != odd;
  }
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
