// A race: every thread reads the counter, waits at a barrier, and writes back its read plus one,
// so each block's 64 increments collapse into one. The program runs, sees its wrong count and
// says so; coopviz passes its output and exit status through.
#include <cstdio>

__global__ void count(int* c) {
  int v = *c;
  __syncthreads();
  *c = v + 1;
}

int main() {
  int* d_count;
  cudaMalloc(&d_count, sizeof(int));
  cudaMemset(d_count, 0, sizeof(int));
  count<<<4, 64>>>(d_count);
  int h = 0;
  cudaMemcpy(&h, d_count, sizeof h, cudaMemcpyDeviceToHost);
  printf("count = %d of 256: %s\n", h, h == 256 ? "PASSED" : "FAILED (lost updates)");
  return h == 256 ? 0 : 1;
}
