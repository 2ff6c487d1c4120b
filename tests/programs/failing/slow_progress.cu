// A kernel whose threads keep working far past any reasonable time limit: a billion atomic
// additions each, every one a step the emulator takes.
#include <cstdio>
__global__ void count_up(unsigned long long* total) {
  for (long i = 0; i < 1000000000L; ++i) atomicAdd(total, 1ull);
}
int main() {
  unsigned long long* d;
  cudaMalloc(&d, sizeof *d);
  cudaMemset(d, 0, sizeof *d);
  count_up<<<4, 64>>>(d);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
