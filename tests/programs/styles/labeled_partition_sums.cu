// expect: labels PASSED
// Grouping the lanes of a warp by a value they hold, with CUDA 11's labeled_partition: each
// lane's label is its element's bucket; the lanes with one label reduce their values together
// with cg::reduce, and each group's first lane adds the sum to its bucket with one atomicAdd.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void bucket_sums(const int *values, const int *buckets, int *sums, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int label = i < n ? buckets[i] : -1;
  int value = i < n ? values[i] : 0;
  cg::coalesced_group same = cg::labeled_partition(warp, label);
  int total = cg::reduce(same, value, cg::plus<int>());
  if (same.thread_rank() == 0 && label >= 0) atomicAdd(&sums[label], total);
}

int main() {
  const int n = 1000, nb = 5, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<int> v(n), b(n), want(nb, 0), got(nb);
  for (int i = 0; i < n; i++) {
    v[i] = i % 9;
    b[i] = (i * i + 3) % nb;
    want[b[i]] += v[i];
  }
  int *d_v, *d_b, *d_s;
  cudaMalloc(&d_v, n * sizeof(int));
  cudaMalloc(&d_b, n * sizeof(int));
  cudaMalloc(&d_s, nb * sizeof(int));
  cudaMemcpy(d_v, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_s, 0, nb * sizeof(int));
  bucket_sums<<<blocks, threads>>>(d_v, d_b, d_s, n);
  cudaMemcpy(got.data(), d_s, nb * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = got == want;
  for (int k = 0; k < nb; k++) printf("bucket %d: %d (expected %d)\n", k, got[k], want[k]);
  cudaFree(d_v);
  cudaFree(d_b);
  cudaFree(d_s);
  printf("labels %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
