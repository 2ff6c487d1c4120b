// kernels: table[which], table[which], table[which]
// Template instances in a table indexed at run time (unrolling factors picked by size).
#include <cstdio>

template <int kUnroll>
__global__ void add_unrolled(int* x, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * kUnroll;
#pragma unroll
  for (int k = 0; k < kUnroll; ++k)
    if (base + k < n) x[base + k] += kUnroll;
}

int main() {
  const int n = 256;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemset(d, 0, n * sizeof(int));
  static void (*const table[])(int*, int) = {add_unrolled<1>, add_unrolled<2>, add_unrolled<4>};
  const int unroll[] = {1, 2, 4};
  for (int which = 0; which < 3; ++which)
    table[which]<<<n / (64 * unroll[which]), 64>>>(d, n);
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 7;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
