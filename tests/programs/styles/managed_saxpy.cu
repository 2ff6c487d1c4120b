// expect: Max error: 0
// Unified memory as the popular "even easier introduction" tutorials use it: cudaMallocManaged
// buffers written and read directly by the host, a grid-stride SAXPY, cudaDeviceSynchronize
// before the host looks, and the maximum error printed.
#include <cmath>
#include <cstdio>

__global__ void saxpy(int n, float a, float *x, float *y) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride) y[i] = a * x[i] + y[i];
}

int main(void) {
  int N = 1 << 14;
  float *x, *y;
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));
  for (int i = 0; i < N; i++) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  int blockSize = 256;
  int numBlocks = (N + blockSize - 1) / blockSize / 4;  // a quarter: each thread loops 4 times
  saxpy<<<numBlocks, blockSize>>>(N, 2.0f, x, y);
  cudaDeviceSynchronize();
  float maxError = 0.0f;
  for (int i = 0; i < N; i++) maxError = fmax(maxError, fabs(y[i] - 4.0f));
  printf("Max error: %g\n", maxError);
  cudaFree(x);
  cudaFree(y);
  return maxError == 0.0f ? 0 : 1;
}
