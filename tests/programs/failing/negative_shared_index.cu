// Shifts a block's values left by one through shared memory, but thread 0 writes s[-1]: before
// the start of the array. On a GPU that lands in another variable or faults; on the emulator it
// stops at the line instead of damaging the emulator's heap.
#include <cstdio>

__global__ void shift(int* out) {
  __shared__ int s[64];
  s[int(threadIdx.x) - 1] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

int main() {
  int* d_out;
  cudaMalloc(&d_out, 64 * sizeof(int));
  shift<<<1, 64>>>(d_out);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
