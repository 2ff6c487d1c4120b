// A program in the way samples are written: every runtime call checked through a helper header
// of its own folder (common/, given with -I or found beside it), a device chosen by attribute,
// __constant__ and __device__ variables set with cudaMemcpyToSymbol, a stream with its own
// flags, pinned host memory, the profiler markers, a launch with cudaLaunchKernel, and the
// block-wide votes
// (__syncthreads_count, _and, _or) beside the bitwise and wrapping atomics.
#include <cuda_runtime.h>

#include <cstdio>

#include "common/sample_checks.h"

__constant__ int c_threshold[2];
__device__ unsigned d_visits;

__global__ void votes(const int* in, int n, int* per_block, unsigned* flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? __ldg(&in[i]) : -1;
  const int above = __syncthreads_count(v > c_threshold[0]);
  const int all_valid = __syncthreads_and(v >= 0);
  const int any_big = __syncthreads_or(v > c_threshold[1]);
  if (threadIdx.x == 0) per_block[blockIdx.x] = above * 4 + all_valid * 2 + any_big;
  if (i < n) {
    atomicOr(&flags[v % 4], 1u << (i % 32));
    atomicAnd(&flags[4], ~(1u << (v % 32)));
    atomicXor(&flags[5], 1u);
    atomicInc(&d_visits, 0xffffffffu);
  }
}

int main() {
  choose_device();
  const int n = 1000, block = 128, grid = (n + block - 1) / block;
  int *h_in, *d_in, *d_per_block;
  unsigned* d_flags;
  CHECK_CUDA(cudaMallocHost(&h_in, n * sizeof(int)));
  for (int i = 0; i < n; ++i) h_in[i] = (i * 37) % 101;
  const int thresholds[2] = {50, 99};
  const unsigned zero = 0, init_flags[6] = {0, 0, 0, 0, 0xffffffffu, 0};
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_per_block, grid * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_flags, sizeof init_flags));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK_CUDA(cudaMemcpyAsync(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice, stream));
  CHECK_CUDA(
      cudaMemcpyAsync(d_flags, init_flags, sizeof init_flags, cudaMemcpyHostToDevice, stream));
  CHECK_CUDA(cudaMemcpyToSymbol(c_threshold, thresholds, sizeof thresholds));
  CHECK_CUDA(cudaMemcpyToSymbol(d_visits, &zero, sizeof zero));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20));
  CHECK_CUDA(cudaFuncSetCacheConfig(votes, cudaFuncCachePreferShared));
  size_t free_bytes = 0, total_bytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  CHECK_CUDA(cudaProfilerStart());
  // The runtime's own launch call, with the arguments' addresses in an array.
  int count = n;
  void* args[] = {&d_in, &count, &d_per_block, &d_flags};
  CHECK_CUDA(cudaLaunchKernel((const void*)votes, dim3(grid), dim3(block), args, 0, stream));
  CHECK_LAUNCH();
  CHECK_CUDA(cudaProfilerStop());
  int per_block[grid];
  unsigned flags[6], visits = 0;
  CHECK_CUDA(
      cudaMemcpyAsync(per_block, d_per_block, sizeof per_block, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(flags, d_flags, sizeof flags, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpyFromSymbol(&visits, d_visits, sizeof visits));

  // The same on the host.
  int wrong = 0;
  unsigned want[6] = {0, 0, 0, 0, 0xffffffffu, 0};
  for (int b = 0; b < grid; ++b) {
    int above = 0, all_valid = 1, any_big = 0;
    for (int t = 0; t < block; ++t) {
      const int i = b * block + t, v = i < n ? h_in[i] : -1;
      above += v > thresholds[0];
      all_valid &= v >= 0;
      any_big |= v > thresholds[1];
      if (i < n) {
        want[v % 4] |= 1u << (i % 32);
        want[4] &= ~(1u << (v % 32));
        want[5] ^= 1u;
      }
    }
    wrong += per_block[b] != above * 4 + all_valid * 2 + any_big;
  }
  for (int k = 0; k < 6; ++k) wrong += flags[k] != want[k];
  wrong += visits != unsigned(n);
  wrong += free_bytes == 0 || free_bytes > total_bytes;
  std::printf("%s (%d wrong)\n", wrong == 0 ? "PASSED" : "FAILED", wrong);
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFreeHost(h_in));
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_per_block));
  CHECK_CUDA(cudaFree(d_flags));
  return wrong == 0 ? 0 : 1;
}
