// kernels: scale<float>, scale<int>
// A kernel template launched with its type given, for two types.
#include <cstdio>

template <typename T>
__global__ void scale(T* data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int main() {
  const int n = 50;
  float hf[n];
  int hi[n];
  for (int i = 0; i < n; ++i) hf[i] = float(i), hi[i] = i;
  float* f;
  int* d;
  cudaMalloc(&f, sizeof hf);
  cudaMalloc(&d, sizeof hi);
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hi, sizeof hi, cudaMemcpyHostToDevice);
  scale<float><<<1, 64>>>(f, 1.5f, n);
  scale<int><<<1, 64>>>(d, 3, n);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, d, sizeof hi, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hf[i] != 1.5f * float(i) || hi[i] != 3 * i;
  cudaFree(f);
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
