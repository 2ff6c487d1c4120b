// Adds a bias to every element, but the bias array was allocated and never filled: the kernel
// reads whatever fresh device memory held. With --check-memory the first such read stops the
// program at its line; without, the program prints the garbage it computed.
#include <cstdio>

__global__ void add_bias(const int* bias, int* data) {
  int i = threadIdx.x;
  data[i] += bias[i];
}

int main() {
  int *d_bias, *d_data;
  cudaMalloc(&d_bias, 32 * sizeof(int));
  cudaMalloc(&d_data, 32 * sizeof(int));
  cudaMemset(d_data, 0, 32 * sizeof(int));
  add_bias<<<1, 32>>>(d_bias, d_data);
  int h = 0;
  cudaMemcpy(&h, d_data, sizeof h, cudaMemcpyDeviceToHost);
  printf("data[0] = %d\n", h);
  return 0;
}
