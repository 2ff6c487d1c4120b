// kernels: normalize<float>
// A kernel template instance launched cooperatively: `(void*)kernel<float>`.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

template <typename T>
__global__ void normalize(T* x, int* max_seen, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  if (i == 0) *max_seen = 0;
  grid.sync();
  if (i < n) atomicMax(max_seen, int(x[i]));
  grid.sync();
  if (i < n) x[i] = x[i] / T(*max_seen);
}

int main() {
  int n = 128;
  float h[128];
  for (int i = 0; i < n; ++i) h[i] = float(i % 16);
  float* x;
  int* m;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&m, sizeof(int));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  void* args[] = {&x, &m, &n};
  cudaLaunchCooperativeKernel((void*)normalize<float>, dim3(2), dim3(64), args, 0, 0);
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != float(i % 16) / 15.0f;
  cudaFree(x);
  cudaFree(m);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
