// A cuda::barrier initialised for the whole block, but thread 63 returns before arriving: the
// others wait for a phase that can never complete.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda/barrier>
__global__ void one_short(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 63) return;
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}
int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  one_short<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
