// kernels: grid_total
// cudaLaunchCooperativeKernel as the CUDA samples write it: (void*) cast, dim3 from ints, and
// `void* kernelArgs[]`; the grid synchronizes between its two phases.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void grid_total(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  int s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
  atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}

int main() {
  int n = 1000;
  int h[1000];
  for (int i = 0; i < n; ++i) h[i] = i % 10;
  int *in, *partial, *total;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, 4 * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(partial, 0, 4 * sizeof(int));
  int blocks = 4, threads = 64;
  void* kernelArgs[] = {(void*)&in, (void*)&partial, (void*)&total, (void*)&n};
  cudaError_t err = cudaLaunchCooperativeKernel((void*)grid_total, blocks, threads, kernelArgs);
  if (err != cudaSuccess) {
    printf("FAILED: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int result = 0;
  cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost);
  const int bad = result != 4500;
  cudaFree(in);
  cudaFree(partial);
  cudaFree(total);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
