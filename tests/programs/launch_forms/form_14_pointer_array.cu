// kernels: stages[s], stages[s], stages[s]
// A table of kernels run one after another from a loop, a pipeline's form.
#include <cstdio>

__global__ void add_one(int* x) { x[threadIdx.x] += 1; }
__global__ void twice(int* x) { x[threadIdx.x] *= 2; }
__global__ void minus_five(int* x) { x[threadIdx.x] -= 5; }

int main() {
  int h[64];
  for (int i = 0; i < 64; ++i) h[i] = i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  void (*stages[])(int*) = {add_one, twice, minus_five};
  for (int s = 0; s < 3; ++s) stages[s]<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += h[i] != (i + 1) * 2 - 5;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
