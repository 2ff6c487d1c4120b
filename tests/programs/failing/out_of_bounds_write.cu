// Scales 256 floats with a grid of 3 blocks of 128 threads and no `if (i < n)`: the third block
// writes past the end of the array. On the emulator the first such write stops the program at
// its line, naming the allocation; nothing around the array is damaged.
#include <cstdio>

__global__ void scale(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * i;
}

int main() {
  const int n = 256;
  float* d_out;
  cudaMalloc(&d_out, n * sizeof(float));
  scale<<<3, 128>>>(d_out, n);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
