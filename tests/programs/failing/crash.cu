// Writes through a null pointer: the program crashes.
#include <cstdio>
__global__ void k(int* p) { p[threadIdx.x] = 1; }
int main() {
  k<<<1, 32>>>(nullptr);
  printf("not reached\n");
  return 0;
}
