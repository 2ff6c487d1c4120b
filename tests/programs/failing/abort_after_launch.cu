// One launch that finishes, then a failed assert on the host: the program aborts, and coopviz
// says what can make a program abort, a damaged heap among them.
#include <cassert>
#include <cstdio>

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int* d_out;
  int h[32];
  cudaMalloc(&d_out, 32 * sizeof(int));
  fill<<<1, 32>>>(d_out);
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  assert(h[31] == 0 && "the kernel wrote 31 here");
  printf("not reached\n");
  return 0;
}
