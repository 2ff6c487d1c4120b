// kernels: increment
// cudaLaunchKernel through the runtime's C++ template overload: the kernel without a cast.
#include <cstdio>

__global__ void increment(unsigned* x) { x[threadIdx.x] += 10; }

int main() {
  unsigned h[16] = {};
  unsigned* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  void* args[] = {&d};
  cudaLaunchKernel(increment, dim3(1), dim3(16), args, 0, 0);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (unsigned v : h) bad += v != 10;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
