// kernels: strided_sum<4, int>
// A kernel template with a block size given and its element type deduced (CUB's style of
// BLOCK_THREADS first).
#include <cstdio>

template <int kItems, typename T>
__global__ void strided_sum(const T* in, T* out) {
  T s = 0;
  for (int k = 0; k < kItems; ++k) s += in[threadIdx.x * kItems + k];
  out[threadIdx.x] = s;
}

int main() {
  const int threads = 32, items = 4;
  int h[threads * items], r[threads];
  for (int i = 0; i < threads * items; ++i) h[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  strided_sum<items><<<1, threads>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < threads; ++t) bad += r[t] != 4 * (4 * t) + 6;
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
