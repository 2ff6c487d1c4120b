// kernels: count_even
// A launch inside the argument of a macro (a logging wrapper), then the usual error check.
#include <cstdio>

#define TIMED(...) \
  do {             \
    __VA_ARGS__;   \
  } while (0)
#define CHECK_LAST() \
  if (cudaGetLastError() != cudaSuccess) return 2

__global__ void count_even(const int* x, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] % 2 == 0) atomicAdd(count, 1);
}

int main() {
  const int n = 77;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *d, *c;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&c, sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(c, 0, sizeof(int));
  TIMED(count_even<<<2, 64>>>(d, c, n));
  CHECK_LAST();
  int count = 0;
  cudaMemcpy(&count, c, sizeof count, cudaMemcpyDeviceToHost);
  const int bad = count != 39;
  cudaFree(d);
  cudaFree(c);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
