// Lanes 0-15 wait at __syncwarp() for lanes 16-31, which wait at the block's barrier instead: a
// deadlock, reported with the __syncwarp's mask.
#include <cstdio>

__global__ void split_warp(int* out) {
  if (threadIdx.x % 32 < 16)
    __syncwarp();
  else
    __syncthreads();
  out[threadIdx.x] = 1;
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  split_warp<<<1, 32>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
