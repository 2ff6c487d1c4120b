// expect: pass — __ballot_sync / __shfl_sync with a full mask after some lanes returned: lanes that
// returned have exited, and CUDA asks only the non-exited lanes a mask names to take part
// Exercise: keep the positive values, one atomic per group of active lanes
// (divergence-and-coalesced lesson). Build it with nvcc, or run it with `coopviz run
// solution.cu`; check it with `coopviz exercise check aggregated-append solution.cu`.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

// Appends every input[i] > 0 (i < n) to out, in any order; *count ends as how many there are.
__global__ void keep_positive(const int* input, int* out, int* count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || input[i] <= 0) return;
  const unsigned mask = __ballot_sync(0xffffffffu, 1);
  const int lane = threadIdx.x % 32, leader = __ffs(mask) - 1;
  int first = 0;
  if (lane == leader) first = atomicAdd(count, __popc(mask));
  first = __shfl_sync(0xffffffffu, first, leader);
  out[first + __popc(mask & ((1u << lane) - 1))] = input[i];
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<int> input(n);
  std::mt19937 rng(11);
  for (int& x : input) x = int(rng() % 21) - 10;

  int *d_input, *d_out, *d_count;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_count, sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_count, 0, sizeof(int));
  keep_positive<<<blocks, threads>>>(d_input, d_out, d_count, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("keep_positive: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int count = 0;
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> want;
  for (int x : input)
    if (x > 0) want.push_back(x);
  std::vector<int> got(std::clamp(count, 0, n));
  cudaMemcpy(got.data(), d_out, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  // The atomics hand out the slots in any order: compare the kept values as sorted lists.
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  const bool right = got == want;
  printf("kept %d values, want %zu: %s\n", count, want.size(), right ? "PASSED" : "FAILED");
  cudaFree(d_input);
  cudaFree(d_out);
  cudaFree(d_count);
  return right ? 0 : 1;
}
