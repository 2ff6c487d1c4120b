// kernels: offset_by
// cudaLaunchKernelEx with a cudaLaunchConfig_t and the kernel's arguments given directly.
#include <cstdio>

__global__ void offset_by(int* x, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += offset;
}

int main() {
  const int n = 90;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(3);
  config.blockDim = dim3(32);
  config.dynamicSmemBytes = 0;
  config.stream = 0;
  config.numAttrs = 0;
  cudaError_t err = cudaLaunchKernelEx(&config, offset_by, d, 1000, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = err != cudaSuccess;
  for (int i = 0; i < n; ++i) bad += h[i] != i + 1000;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
