// kernels: fill<T>, fill<T>
// A launch inside a host function template: the kernel's template argument is the host
// template's parameter.
#include <cstdio>

template <typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

template <typename T>
int fill_and_check(T value) {
  const int n = 100;
  T* d;
  cudaMalloc(&d, n * sizeof(T));
  fill<T><<<(n + 31) / 32, 32>>>(d, value, n);
  T h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != value;
  return bad;
}

int main() {
  const int bad = fill_and_check<int>(42) + fill_and_check<float>(2.5f);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
