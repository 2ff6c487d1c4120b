// Hands a device_vector of 1000 floats to a kernel through raw_pointer_cast and launches 4 blocks
// of 256 threads with no `if (i < n)`: the last block writes past the vector. Its storage is an
// allocation like cudaMalloc's, so the first such write stops the program at its line.
#include <thrust/device_vector.h>

#include <cstdio>

__global__ void fill_ones(float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = 1.0f;
}

int main() {
  thrust::device_vector<float> v(1000);
  fill_ones<<<4, 256>>>(thrust::raw_pointer_cast(v.data()));
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
