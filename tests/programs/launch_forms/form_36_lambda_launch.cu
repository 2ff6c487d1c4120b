// kernels: add_to, add_to, add_to
// Launches made by a host lambda that captures the device pointer.
#include <cstdio>

__global__ void add_to(int* x, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += value;
}

int main() {
  const int n = 48;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemset(d, 0, n * sizeof(int));
  auto add = [&](int value) { add_to<<<(n + 15) / 16, 16>>>(d, value, n); };
  for (int v = 1; v <= 3; ++v) add(v);
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 6;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
