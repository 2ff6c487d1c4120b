// kernels: kernel, kernel
// A kernel template instance chosen at run time and launched through one pointer, as samples
// pick a block size from the device's properties.
#include <cstdio>

template <int kBlock>
__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int k = 0; k < kBlock; ++k) t += s[k];
    out[blockIdx.x] = t;
  }
}

int run(int block, const int* in, int* out, int n) {
  void (*kernel)(const int*, int*) = block == 64 ? block_sum<64> : block_sum<32>;
  kernel<<<n / block, block>>>(in, out);
  return n / block;
}

int main() {
  const int n = 128;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = 1;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 4 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  int bad = 0;
  for (int block : {64, 32}) {
    const int blocks = run(block, in, out, n);
    int r[4];
    cudaMemcpy(r, out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b) bad += r[b] != block;
  }
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
