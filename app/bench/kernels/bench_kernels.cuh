// Kernels the benchmarks time. Written once, like lesson kernels, so each runs on the GPU and on
// the emulator.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::bench {

// The sum reduction from the atomics notes, as its Numba version does it: stage the block's slice
// in shared memory, let thread 0 add it up serially, one atomic per block.
__global__ void staged_sum(const float* a, float* s) {
  __shared__ float staging[512];
  staging[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float local = 0.0f;
    for (unsigned i = 0; i < blockDim.x; ++i) local += staging[i];
    atomicAdd(s, local);
  }
}

// In-place shared-memory tree over a 1024-thread block: exactly 10 barriers per thread (one
// before each of the log2(1024) rounds), then one atomic per block.
__global__ void tree_sum_1024(const float* in, float* out) {
  __shared__ float s[1024];
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  s[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    block.sync();
    if (t < half) s[t] += s[t + half];
  }
  if (t == 0) atomicAdd(out, s[0]);
}

// A traced grid-stride reduction: every load is a traced load, then a block tree with sync. Used
// to measure how fast the GPU recorder takes events from a full GPU.
__global__ void traced_grid_sum(const float* in, float* out, unsigned n) {
  __shared__ float s[1024];
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  const unsigned stride = gridDim.x * blockDim.x;
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += stride) sum += traced(in[i]);
  s[t] = sum;
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    block.sync();
    if (t < half) s[t] += s[t + half];
  }
  if (t == 0) atomicAdd(out, s[0]);
}

}  // namespace coop::lessons::bench
