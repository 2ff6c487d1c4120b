// expect: filter PASSED
// order: atomics
// Warp-aggregated atomics with coalesced_threads(), as the CG blog post and the CUDA blog's
// "optimized filtering" show: inside the branch only the lanes that took it form the group, its
// leader reserves room for all of them with one atomicAdd, shares the base with g.shfl, and each
// lane writes at base + its rank. The output is compared, as a multiset, with the host's filter.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__device__ int atomicAggInc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int prev;
  if (active.thread_rank() == 0) prev = atomicAdd(counter, active.size());
  prev = active.shfl(prev, 0);
  return prev + active.thread_rank();
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}

int main() {
  const int n = 1500, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<int> h(n), want;
  for (int i = 0; i < n; i++) {
    h[i] = (int)((i * 7919u) % 23) - 11;
    if (h[i] > 0) want.push_back(h[i]);
  }
  int *d_src, *d_dst, *d_count;
  cudaMalloc(&d_src, n * sizeof(int));
  cudaMalloc(&d_dst, n * sizeof(int));
  cudaMalloc(&d_count, sizeof(int));
  cudaMemcpy(d_src, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_count, 0, sizeof(int));
  filter_k<<<blocks, threads>>>(d_dst, d_count, d_src, n);
  int count = 0;
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> got(count > 0 && count <= n ? count : 0);
  cudaMemcpy(got.data(), d_dst, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  const bool ok = got == want;
  printf("%d kept (expected %zu)\n", count, want.size());
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_count);
  printf("filter %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
