// kernels: bump<int>, bump<float>
// A kernel template with a defaulted parameter, its type deduced and the default left out.
#include <cstdio>

template <typename T>
__global__ void bump(T* x, int n, T amount = T(1)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += amount;
}

int main() {
  const int n = 40;
  int* di;
  float* df;
  cudaMalloc(&di, n * sizeof(int));
  cudaMalloc(&df, n * sizeof(float));
  cudaMemset(di, 0, n * sizeof(int));
  cudaMemset(df, 0, n * sizeof(float));
  bump<<<1, 64>>>(di, n);
  bump<<<1, 64>>>(df, n, 0.5f);
  int hi[n];
  float hf[n];
  cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hi[i] != 1 || hf[i] != 0.5f;
  cudaFree(di);
  cudaFree(df);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
