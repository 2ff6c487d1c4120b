// kernels: stage
// A cooperative launch of a kernel held in a typed pointer variable.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void rotate_grid(int* x, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  const int v = i < n ? x[(i + 1) % n] : 0;
  grid.sync();
  if (i < n) x[i] = v;
}

int main() {
  int n = 64;
  int h[64];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  void (*stage)(int*, int) = rotate_grid;
  void* args[] = {&d, &n};
  cudaLaunchCooperativeKernel((void*)stage, 2, 32, args);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != (i + 1) % n;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
