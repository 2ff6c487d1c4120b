// Doubles n = 100 ints with one block of 128 threads, reading in[i] without `if (i < n)`: thread
// 100 reads past the end of the input. The output has room for every thread, so only the read is
// out of bounds.
#include <cstdio>
#include <vector>

__global__ void twice(const int* in, int* out) {
  int i = threadIdx.x;
  out[i] = 2 * in[i];
}

int main() {
  const int n = 100;
  std::vector<int> h(n, 1);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, 128 * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<1, 128>>>(d_in, d_out);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
