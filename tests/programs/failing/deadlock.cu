// Half of a block waits at __syncthreads() for the other half, which never comes.
#include <cstdio>
#include <cooperative_groups.h>
__global__ void half_sync(int* out) {
  if (threadIdx.x < 32) __syncthreads();
  out[threadIdx.x] = 1;
}
int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  half_sync<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaError_t l = cudaGetLastError();
  printf("sync: %s, last: %s\n", cudaGetErrorName(e), cudaGetErrorName(l));
  return l == cudaSuccess ? 0 : 1;
}
