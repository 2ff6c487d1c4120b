// kernels: table.kernel
// A kernel pointer of a typedef'd type held in a struct with its launch shape.
#include <cstdio>

typedef void (*FillKernel)(int*, int);

__global__ void fill_value(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

struct LaunchPlan {
  FillKernel kernel;
  dim3 grid, block;
};

int main() {
  LaunchPlan table{fill_value, dim3(2), dim3(32)};
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  table.kernel<<<table.grid, table.block>>>(d, 9);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += h[i] != 9;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
