// kernels: grid_max<int>
// cudaLaunchKernelEx with a cooperative attribute, a template kernel and a (void*)-free kernel
// argument, the CUDA 12 style for grid synchronization.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

template <typename T>
__global__ void grid_max(const T* in, T* out, int n) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0) *out = in[0];
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) atomicMax(out, in[i]);
}

int main() {
  const int n = 500;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 491;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeCooperative;
  attribute[0].val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = 2;
  config.blockDim = 64;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, grid_max<int>, (const int*)in, out, n);
  int m = 0;
  cudaMemcpy(&m, out, sizeof m, cudaMemcpyDeviceToHost);
  const int bad = m != 490;
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
