// kernels: op, op
// A kernel held in a plain function pointer, reassigned between launches.
#include <cstdio>

__global__ void add_two(int* x) { x[threadIdx.x] += 2; }
__global__ void times_three(int* x) { x[threadIdx.x] *= 3; }

int main() {
  int h[32];
  for (int i = 0; i < 32; ++i) h[i] = i;
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  void (*op)(int*) = add_two;
  op<<<1, 32>>>(d);
  op = times_three;
  op<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) bad += h[i] != (i + 2) * 3;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
