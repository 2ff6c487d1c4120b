// kernels: shift
// A launch spread over a multi-line macro with a check after it, as course code wraps launches.
#include <cstdio>

__global__ void shift(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(i + 1) % n];
}

#define LAUNCH_SHIFT(in, out, n)                          \
  do {                                                    \
    shift<<<((n) + 31) / 32,                              \
            32>>>((in), (out), (n));                      \
    cudaError_t e = cudaGetLastError();                   \
    if (e != cudaSuccess) printf("FAILED: %s\n", cudaGetErrorString(e)); \
  } while (0)

int main() {
  const int n = 50;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int *a, *b;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  LAUNCH_SHIFT(a, b, n);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != (i + 1) % n;
  cudaFree(a);
  cudaFree(b);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
