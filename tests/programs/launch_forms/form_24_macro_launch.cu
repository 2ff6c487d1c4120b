// kernels: triple, triple
// A launch written inside an object-like macro's body and a function-like one's.
#include <cstdio>

__global__ void triple(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 3;
}

#define TRIPLE_ALL triple<<<1, 64>>>(d, n)
#define TRIPLE_WITH(threads) triple<<<(n + (threads) - 1) / (threads), (threads)>>>(d, n)

int main() {
  const int n = 60;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  TRIPLE_ALL;
  TRIPLE_WITH(32);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 9 * i;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
