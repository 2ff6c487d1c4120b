// A kernel that waits for a flag nobody sets.
#include <cstdio>
__global__ void spin(int* flag) { while (*flag == 0) { } }
int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  spin<<<1, 32>>>(d);
  printf("not reached\n");
  return 0;
}
