// A two-phase sum with grid.sync(), launched with cudaLaunchCooperativeKernel: every block writes
// its partial sum, the whole grid waits, then block 0 adds the partial sums.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

__global__ void two_phase_sum(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ int scratch[];
  int v = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.num_threads()) v += in[i];
  scratch[block.thread_rank()] = v;
  block.sync();
  for (int half = block.num_threads() / 2; half > 0; half /= 2) {
    if (block.thread_rank() < half) scratch[block.thread_rank()] += scratch[block.thread_rank() + half];
    block.sync();
  }
  if (block.thread_rank() == 0) partial[blockIdx.x] = scratch[0];
  grid.sync();
  if (grid.thread_rank() == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

int main() {
  int supports = 0;
  cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, 0);
  if (!supports) {
    printf("cooperative launch not supported: waived\n");
    return 0;
  }
  const int n = 5000, threads = 128;
  int blocks_per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, two_phase_sum, threads,
                                                threads * sizeof(int));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const int blocks = 4 < blocks_per_sm * prop.multiProcessorCount ? 4 : blocks_per_sm * prop.multiProcessorCount;
  std::vector<int> h(n);
  long expect = 0;
  for (int i = 0; i < n; ++i) expect += (h[i] = (i * 7) % 13);
  int *d_in, *d_partial, *d_total;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_partial, blocks * sizeof(int));
  cudaMalloc(&d_total, sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int count = n;
  void* args[] = {&d_in, &d_partial, &d_total, &count};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)two_phase_sum, dim3(blocks), dim3(threads), args,
                                              threads * sizeof(int), 0);
  if (e != cudaSuccess) {
    printf("cudaLaunchCooperativeKernel: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int total = 0;
  cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum %d, expected %ld: %s\n", total, expect, total == expect ? "PASSED" : "FAILED");
  cudaFree(d_in);
  cudaFree(d_partial);
  cudaFree(d_total);
  return total == expect ? 0 : 1;
}
