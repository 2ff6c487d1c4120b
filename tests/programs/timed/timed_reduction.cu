// Sums 2^20 floats (the first argument changes the count) with a multi-block Cooperative Groups
// reduction: each block reduces its stretch with warp tiles and adds its partial sum atomically.
// The kernel is timed over a loop of launches (the second argument, default 100) between two CUDA
// events, and the sum is checked against the host's.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

__global__ void reduce_sum(const float* in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float warp_sums[32];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += in[i];
  sum = cg::reduce(warp, sum, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = sum;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    const unsigned warps = (block.size() + 31) / 32;
    float partial = warp.thread_rank() < warps ? warp_sums[warp.thread_rank()] : 0.0f;
    partial = cg::reduce(warp, partial, cg::plus<float>());
    if (warp.thread_rank() == 0) atomicAdd(out, partial);
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n < 1 || iterations < 1) {
    fprintf(stderr, "usage: %s [elements] [launches timed]\n", argv[0]);
    return 2;
  }
  std::vector<float> h_in(n);
  double want = 0;
  for (int i = 0; i < n; ++i) {
    h_in[i] = float(i % 17) * 0.25f;
    want += h_in[i];
  }
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, sizeof(float));
  cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  const int threads = 256;
  const int blocks = std::min((n + threads - 1) / threads, 1024);
  cudaMemset(d_out, 0, sizeof(float));
  reduce_sum<<<blocks, threads>>>(d_in, d_out, n);  // warm-up
  float got = 0.0f;
  cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost);

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  for (int i = 0; i < iterations; ++i) reduce_sum<<<blocks, threads>>>(d_in, d_out, n);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(e));
    return 1;
  }
  const double per_launch = ms / iterations;
  printf("Average time = %.4f ms over %d launches (%d blocks of %d), %.2f GB/s\n", per_launch,
         iterations, blocks, threads, n * sizeof(float) / (per_launch / 1e3) / 1e9);
  // The warm-up's sum alone is checked: the timed launches keep adding to it.
  const bool ok = std::fabs(got - want) <= 1e-4 * want;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(d_in);
  cudaFree(d_out);
  printf("sum %.1f (expected %.1f): %s\n", got, want, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
