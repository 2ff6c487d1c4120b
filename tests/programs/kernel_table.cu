// Two kernels of one signature in a table, launched through it with one shape, as programs
// choose a variant at run time (a derivative per direction, a kernel per tile size): each launch
// is its own kernel's and traced, never taken for a repeat of the other.
#include <cstdio>

__global__ void add_ten(int* x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 10; }
__global__ void triple(int* x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 3; }

int main() {
  void (*table[2])(int*) = {add_ten, triple};
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d = nullptr;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  for (int k = 0; k < 2; ++k) table[k]<<<2, n / 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != (i + 10) * 3;
  printf("add_ten then triple: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
