// kernels: fill_pattern, fill_pattern, fill_pattern
// Two defaulted parameters: none given, one given, both given.
#include <cstdio>

constexpr int kDefaultBase = 7;

__global__ void fill_pattern(int* out, int n, int base = kDefaultBase, int step = 3) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + step * i;
}

int main() {
  const int n = 40;
  int *a, *b, *c;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  fill_pattern<<<1, 64>>>(a, n);
  fill_pattern<<<1, 64>>>(b, n, 100);
  fill_pattern<<<1, 64>>>(c, n, 1, 1);
  int ha[n], hb[n], hc[n];
  cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += ha[i] != 7 + 3 * i || hb[i] != 100 + 3 * i || hc[i] != 1 + i;
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
