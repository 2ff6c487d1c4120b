// CDP1's device-side cudaDeviceSynchronize, which CUDA 12 removed: nvcc refuses it.
#include <cuda_runtime.h>

__global__ void child(int* v) { v[threadIdx.x] += 1; }

__global__ void parent(int* v) {
  child<<<1, 32>>>(v);
  cudaDeviceSynchronize();
  v[0] *= 2;
}

int main() {
  int* v = nullptr;
  cudaMalloc(&v, 32 * sizeof(int));
  parent<<<1, 1>>>(v);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
