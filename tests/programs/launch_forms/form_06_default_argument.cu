// kernels: axpy, axpy
// A kernel with a defaulted parameter, launched without it and with it.
#include <cstdio>

__global__ void axpy(float a, const float* x, float* y, int n, int stride = 1) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  if (i < n) y[i] += a * x[i];
}

int main() {
  const int n = 128;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = 1.0f, hy[i] = float(i);
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  axpy<<<2, 64>>>(2.0f, x, y, n);
  axpy<<<1, 64>>>(1.0f, x, y, n, 2);
  cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hy[i] != float(i) + 2.0f + (i % 2 == 0 ? 1.0f : 0.0f);
  cudaFree(x);
  cudaFree(y);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
