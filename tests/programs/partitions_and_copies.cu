// labeled_partition and binary_partition of a tile, cg::reduce over the parts, memcpy_async of a
// block's slice into shared memory with cg::wait, cuda::atomic_ref at block scope, and a
// device-side assert that holds.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>

#include <cassert>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void parts(const int* in, int* by_label, int* odd_counts, int* block_totals) {
  __shared__ int slice[128];
  __shared__ int total;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) total = 0;
  cg::memcpy_async(block, slice, in + blockIdx.x * 128, sizeof(int) * 128);
  cg::wait(block);
  const int v = slice[block.thread_rank()];
  assert(v >= 0);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  cg::coalesced_group same = cg::labeled_partition(tile, v % 4);
  const int label_sum = cg::reduce(same, v, cg::plus<int>());
  by_label[blockIdx.x * 128 + block.thread_rank()] = label_sum;
  cg::coalesced_group odd = cg::binary_partition(tile, v % 2 == 1);
  if (v % 2 == 1 && odd.thread_rank() == 0)
    odd_counts[blockIdx.x * 4 + tile.meta_group_rank()] = int(odd.num_threads());
  cuda::atomic_ref<int, cuda::thread_scope_block> t(total);
  t.fetch_add(v, cuda::memory_order_relaxed);
  block.sync();
  if (block.thread_rank() == 0) block_totals[blockIdx.x] = total;
}

int main() {
  const int blocks = 2, n = blocks * 128;
  int h[n], label_sums[n], odd_counts[blocks * 4], totals[blocks];
  for (int i = 0; i < n; ++i) h[i] = (i * 13 + 5) % 23;
  int *d_in, *d_label, *d_odd, *d_totals;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_label, sizeof label_sums);
  cudaMalloc(&d_odd, sizeof odd_counts);
  cudaMalloc(&d_totals, sizeof totals);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(d_odd, 0, sizeof odd_counts);
  parts<<<blocks, 128>>>(d_in, d_label, d_odd, d_totals);
  cudaMemcpy(label_sums, d_label, sizeof label_sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(odd_counts, d_odd, sizeof odd_counts, cudaMemcpyDeviceToHost);
  cudaMemcpy(totals, d_totals, sizeof totals, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int s = 0;
    for (int k = i & ~31; k < (i & ~31) + 32; ++k) s += h[k] % 4 == h[i] % 4 ? h[k] : 0;
    bad += label_sums[i] != s;
  }
  for (int t = 0; t < blocks * 4; ++t) {
    int odd = 0;
    for (int k = t * 32; k < t * 32 + 32; ++k) odd += h[k] % 2;
    bad += odd_counts[t] != odd;
  }
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int k = b * 128; k < b * 128 + 128; ++k) s += h[k];
    bad += totals[b] != s;
  }
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
