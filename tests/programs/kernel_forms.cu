// Kernels in the forms real programs write them: a template kernel launched with two types, an
// extern "C" kernel, const and __restrict__ parameters, a __host__ __device__ helper, a
// __constant__ table, a __device__ global, a type-first extern __shared__ array, code under
// #if __CUDA_ARCH__, and device-side printf.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__constant__ int kScale[2] = {3, 5};
__device__ int launches_seen;

__host__ __device__ inline int twice(int x) { return 2 * x; }

template <typename T, int Scale>
__global__ void scale_all(T* __restrict__ data, const int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * T(Scale) + T(kScale[0]);
}

extern "C" __global__ void block_sums(const int* in, int* out) {
  extern int __shared__ partial[];
  cg::thread_block block = cg::this_thread_block();
  partial[block.thread_rank()] = twice(in[blockIdx.x * blockDim.x + threadIdx.x]);
  block.sync();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (block.thread_rank() == 0) {
    int s = 0;
    for (unsigned k = 0; k < block.size(); ++k) s += partial[k];
    out[blockIdx.x] = s;
    atomicAdd(&launches_seen, 1);
    if (blockIdx.x == 0) printf("block 0 of block_sums: %d\n", s);
  }
#endif
}

int main() {
  const int n = 100;
  float h_f[n];
  double h_d[n];
  int h_i[64], h_out[2];
  for (int i = 0; i < n; ++i) h_f[i] = float(i), h_d[i] = 0.5 * i;
  for (int i = 0; i < 64; ++i) h_i[i] = i;
  float* d_f;
  double* d_d;
  int *d_i, *d_out;
  cudaMalloc(&d_f, sizeof h_f);
  cudaMalloc(&d_d, sizeof h_d);
  cudaMalloc(&d_i, sizeof h_i);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_f, h_f, sizeof h_f, cudaMemcpyHostToDevice);
  cudaMemcpy(d_d, h_d, sizeof h_d, cudaMemcpyHostToDevice);
  cudaMemcpy(d_i, h_i, sizeof h_i, cudaMemcpyHostToDevice);
  scale_all<float, 2><<<(n + 63) / 64, 64>>>(d_f, n);
  scale_all<double, 4><<<(n + 63) / 64, 64>>>(d_d, n);
  block_sums<<<2, 32, 32 * sizeof(int)>>>(d_i, d_out);
  cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int seen = 0;
  cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h_f[i] != float(i) * 2 + 3 || h_d[i] != 0.5 * i * 4 + 3;
  bad += h_out[0] != 2 * (31 * 32 / 2) || h_out[1] != 2 * (32 * 32 + 31 * 32 / 2) || seen != 2;
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
