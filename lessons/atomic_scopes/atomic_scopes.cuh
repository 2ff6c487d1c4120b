// Atomic scopes and memory order: cuda::std::atomic_ref against cuda::atomic_ref with a thread
// scope, the seed's sumReduction written with fetch_add, and the message-passing litmus test.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::atomic_scopes {

// Three counters, three scopes. The block's counter lives in shared memory and only its own
// threads touch it, so block scope is enough. Every block touches grid_count: device scope.
// cuda::std::atomic_ref takes no scope and always means system scope, the widest: correct even
// if the host or another GPU watched the counter, and never cheaper than a narrower scope.
__global__ void scoped_counts(int* per_block, int* grid_count, int* system_count) {
  __shared__ int block_count;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) block_count = 0;
  block.sync();
  cuda::atomic_ref<int, cuda::thread_scope_block> in_block(block_count);
  cuda::atomic_ref<int, cuda::thread_scope_device> in_grid(*grid_count);
  cuda::std::atomic_ref<int> anywhere(*system_count);
  in_block.fetch_add(1, cuda::memory_order_relaxed);
  in_grid.fetch_add(1, cuda::memory_order_relaxed);
  anywhere.fetch_add(1);
  block.sync();
  if (block.thread_rank() == 0) per_block[blockIdx.x] = in_block.load(cuda::memory_order_relaxed);
}

// The seed's sumReduction: each thread adds its element to *result through a device-scope
// atomic_ref. atomic_ref binds to the object, so it is built from *result, not from result.
__global__ void sum_reduction(int n, const float* array, float* result) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid < n) {
    cuda::atomic_ref<float, cuda::thread_scope_device> result_ref(*result);
    result_ref.fetch_add(array[tid]);
  }
}

// Message passing. Threads `distance` apart pair up: the first of a pair writes, the second
// reads. The writer stores data, then raises the flag; the reader loads the flag, then the data,
// and records seen = 2 * flag + data. Everything is atomic; only the flag's memory order varies.
__device__ int pair_of(int id, int distance) {
  return id / (2 * distance) * distance + id % distance;
}

template <cuda::memory_order kRaise, cuda::memory_order kLook>
__device__ void pass_message(int* data, int* flag, int* seen, int distance) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = pair_of(id, distance);
  cuda::atomic_ref<int, cuda::thread_scope_device> d(data[k]);
  cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[k]);
  if (id / distance % 2 == 0) {
    d.store(1, cuda::memory_order_relaxed);
    f.store(1, kRaise);
  } else {
    const int f_seen = f.load(kLook);
    const int d_seen = d.load(cuda::memory_order_relaxed);
    seen[k] = 2 * f_seen + d_seen;
  }
}

// Relaxed: each location is atomic on its own, and nothing orders the two. A reader may see the
// flag raised and still read the old data.
__global__ void message_relaxed(int* data, int* flag, int* seen, int distance) {
  pass_message<cuda::memory_order_relaxed, cuda::memory_order_relaxed>(data, flag, seen, distance);
}

// Release/acquire: the release store publishes every write the writer made before it; an acquire
// load that reads that flag sees them all. Flag 1 with data 0 can never be observed.
__global__ void message_release_acquire(int* data, int* flag, int* seen, int distance) {
  pass_message<cuda::memory_order_release, cuda::memory_order_acquire>(data, flag, seen, distance);
}

}  // namespace coop::lessons::atomic_scopes
