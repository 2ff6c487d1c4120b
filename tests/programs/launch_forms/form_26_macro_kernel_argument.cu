// kernels: add_index, square_in_place
// A macro that takes the kernel itself and launches it (a benchmark harness's RUN(kernel)).
#include <cstdio>

__global__ void add_index(int* x) { x[threadIdx.x] += threadIdx.x; }
__global__ void square_in_place(int* x) { x[threadIdx.x] *= x[threadIdx.x]; }

#define RUN(kernel, data)                 \
  kernel<<<1, 32>>>(data);                \
  cudaDeviceSynchronize()

int main() {
  int h[32] = {};
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  RUN(add_index, d);
  RUN(square_in_place, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) bad += h[i] != i * i;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
