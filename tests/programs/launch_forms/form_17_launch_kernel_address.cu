// kernels: negate
// cudaLaunchKernel with `(const void*)&kernel` and arguments as a void** built by hand.
#include <cstdio>

__global__ void negate(int* x, int n) {
  int i = threadIdx.x;
  if (i < n) x[i] = -x[i];
}

int main() {
  int n = 32;
  int h[32];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  void** args = new void*[2];
  args[0] = &d;
  args[1] = &n;
  cudaLaunchKernel((const void*)&negate, dim3(1), dim3(32), args);
  delete[] args;
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != -i;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
