// kernels: bounded
// A kernel with __launch_bounds__ and __restrict__ parameters, launched at its bound.
#include <cstdio>

#define THREADS 128

__global__ void __launch_bounds__(THREADS) bounded(const int* __restrict__ in,
                                                   int* __restrict__ out) {
  out[blockIdx.x * THREADS + threadIdx.x] = 2 * in[blockIdx.x * THREADS + threadIdx.x];
}

int main() {
  const int n = 2 * THREADS;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  bounded<<<n / THREADS, THREADS>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 2 * i;
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
