// kernels: shift_by<float>, shift_by<double>
// A kernel template whose type is deduced from the launch's arguments, as with a function.
#include <cstdio>

template <typename T>
__global__ void shift_by(T* values, T delta, int count) {
  const int k = threadIdx.x + blockIdx.x * blockDim.x;
  if (k >= count) return;
  values[k] = values[k] + delta;
}

int main() {
  const int n = 70;
  float hf[n];
  double hd[n];
  for (int i = 0; i < n; ++i) hf[i] = float(i), hd[i] = double(i);
  float* f;
  double* d;
  cudaMalloc(&f, sizeof hf);
  cudaMalloc(&d, sizeof hd);
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
  shift_by<<<2, 64>>>(f, 2.0f, n);
  shift_by<<<2, 64>>>(d, 0.25, n);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hf[i] != float(i) + 2.0f || hd[i] != i + 0.25;
  cudaFree(f);
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
