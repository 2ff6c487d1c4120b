// kernels: saxpy
// cudaLaunchKernel with a (void*) cast of the kernel and a void* array of its arguments.
#include <cstdio>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  int n = 100;
  float a = 3.0f;
  float hx[100], hy[100];
  for (int i = 0; i < n; ++i) hx[i] = float(i), hy[i] = 1.0f;
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  void* args[] = {&n, &a, &x, &y};
  cudaError_t err = cudaLaunchKernel((void*)saxpy, dim3(2), dim3(64), args, 0, nullptr);
  if (err != cudaSuccess) {
    printf("FAILED: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hy[i] != 3.0f * float(i) + 1.0f;
  cudaFree(x);
  cudaFree(y);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
