// kernels: square, square
// Launches on a created stream (all four launch parameters), with asynchronous copies.
#include <cstdio>

__global__ void square(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i];
}

int main() {
  const int n = 96;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i % 7);
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  square<<<2, 64, 0, stream>>>(d, n);
  square<<<dim3(2), dim3(64), 0, stream>>>(d, n);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float v = float(i % 7);
    bad += h[i] != v * v * v * v;
  }
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
