// expect: pass — __match_any_sync over the lanes still here, then each lane adds its group's values from global memory
// Exercise: each thread learns the sum over the lanes of its warp that hold its label
// (labeled-binary-stride lesson). Build it with nvcc, or run it with `coopviz run solution.cu`;
// check it with `coopviz exercise check label-sums solution.cu`.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

// same_label_sum[i] = the sum of value[j] over the j < n in i's warp with label[j] == label[i].
__global__ void label_sums(const int* label, const int* value, int* same_label_sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // The lanes still here: a whole warp, or the first lanes of the last one.
  cg::coalesced_group active = cg::coalesced_threads();
  const int lane = int(threadIdx.x % 32);
  const int warp_first = i - lane;  // global index of the warp's lane 0
  // The lanes still here: those of the warp below n and inside the block.
  const int here = min(min(32, n - warp_first), int(blockDim.x - (threadIdx.x - lane)));
  const unsigned lanes = here >= 32 ? 0xffffffffu : (1u << here) - 1;
  const unsigned mine = __match_any_sync(lanes, label[i]);
  int sum = 0;
  for (int j = 0; j < 32; ++j)
    if (mine & (1u << j)) sum += value[warp_first + j];
  same_label_sum[i] = sum;
  (void)active;
}

int main() {
  const int n = 1024, threads = 256, blocks = (n + threads - 1) / threads, labels = 4;
  std::vector<int> label(n), value(n);
  std::mt19937 rng(5);
  for (int i = 0; i < n; ++i) {
    label[i] = int(rng() % labels);
    value[i] = int(rng() % 50);
  }
  int *d_label, *d_value, *d_sums;
  cudaMalloc(&d_label, n * sizeof(int));
  cudaMalloc(&d_value, n * sizeof(int));
  cudaMalloc(&d_sums, n * sizeof(int));
  cudaMemcpy(d_label, label.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_value, value.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  label_sums<<<blocks, threads>>>(d_label, d_value, d_sums, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("label_sums: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> sums(n);
  cudaMemcpy(sums.data(), d_sums, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    int want = 0;
    for (int j = i / 32 * 32; j < n && j < i / 32 * 32 + 32; ++j)
      if (label[j] == label[i]) want += value[j];
    if (sums[i] != want) ++wrong;
  }
  printf("%d of %d sums right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_label);
  cudaFree(d_value);
  cudaFree(d_sums);
  return wrong ? 1 : 0;
}
