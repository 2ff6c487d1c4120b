// kernels: prefix_grid
// A cooperative launch whose argument array is a std::vector<void*>'s data().
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void prefix_grid(int* x, int* block_totals, int per_block) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int k = 0; k < per_block; ++k) s += x[blockIdx.x * per_block + k];
    block_totals[blockIdx.x] = s;
  }
  grid.sync();
  if (threadIdx.x == 0) {
    int before = 0;
    for (unsigned b = 0; b < blockIdx.x; ++b) before += block_totals[b];
    x[blockIdx.x * per_block] += before;
  }
  block.sync();
}

int main() {
  const int blocks = 4, per_block = 8;
  int h[blocks * per_block];
  for (int i = 0; i < blocks * per_block; ++i) h[i] = 1;
  int *x, *totals;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&totals, blocks * sizeof(int));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  int pb = per_block;
  std::vector<void*> args = {&x, &totals, &pb};
  cudaLaunchCooperativeKernel((const void*)prefix_grid, dim3(blocks), dim3(32), args.data(), 0,
                              cudaStreamDefault);
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) bad += h[b * per_block] != 1 + b * per_block;
  cudaFree(x);
  cudaFree(totals);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
