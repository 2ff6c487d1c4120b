// kernels: block_count
// A __shared__ scalar and array in one declaration, over two lines.
#include <cstdio>

__global__ void block_count(const int* in, int* out) {
  __shared__ int total,
      marks[64];
  if (threadIdx.x == 0) total = 0;
  marks[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x] > 10;
  __syncthreads();
  atomicAdd(&total, marks[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main() {
  int h[128], r[2];
  for (int i = 0; i < 128; ++i) h[i] = i % 20;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  block_count<<<2, 64>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < 2; ++b) {
    int e = 0;
    for (int i = 0; i < 64; ++i) e += h[b * 64 + i] > 10;
    bad += r[b] != e;
  }
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
