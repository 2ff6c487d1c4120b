// One launch that finishes, then a null pointer read on the host: the program crashes, and the
// launch it finished is still in its trace.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void ranks(int* out) { out[threadIdx.x] = cg::this_thread_block().thread_rank(); }

int main() {
  int* d_out;
  cudaMalloc(&d_out, 32 * sizeof(int));
  ranks<<<1, 32>>>(d_out);
  cudaDeviceSynchronize();
  volatile int* nowhere = nullptr;
  printf("%d\n", *nowhere);
  return 0;
}
