// kernels: iota, iota
// Launch shapes taken from a struct and from a function's return values.
#include <cstdio>

__global__ void iota(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i;
}

struct Shape {
  dim3 grid, block;
  size_t shared_bytes;
};

Shape shape_for(int n, int threads) { return {dim3((n + threads - 1) / threads), dim3(threads), 0}; }
unsigned blocks_for(int n) { return (n + 63) / 64; }

int main() {
  const int n = 130;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  const Shape s = shape_for(n, 32);
  iota<<<s.grid, s.block, s.shared_bytes>>>(d, n);
  iota<<<blocks_for(n), 64>>>(d, n);
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != i;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
