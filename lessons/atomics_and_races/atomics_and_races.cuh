// Atomics and races: an unprotected read-add-write against atomicAdd, the order in which atomics
// land, the price of many threads on one address, a block-local sum with one atomic per block,
// and a float counter that stops counting at 2^24.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::atomics_and_races {

constexpr int kMaxBlock = 1024;

// The race. Reading s[0], adding and writing back are separate steps: threads that read the same
// old value all write old + their own x, and only the last write survives. traced() records each
// read and write, so the lesson can tell whose writes were overwritten before anyone read them.
__global__ void racy_sum(const int* x, int* s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  traced(s[0]) = traced(s[0]) + x[i];
}

// The same race inside one block, on a __shared__ total: each block loses updates the same way.
// (Shared memory is also where compute-sanitizer's racecheck looks: it reports this race.)
__global__ void racy_block_sum(const int* x, int* block_totals) {
  __shared__ int total;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) total = 0;
  block.sync();
  traced(total) = traced(total) + x[blockIdx.x * blockDim.x + threadIdx.x];
  block.sync();
  if (block.thread_rank() == 0) block_totals[blockIdx.x] = total;
}

// The fix. atomicAdd reads, adds and writes as one indivisible step and returns the value it
// found: what s[0] held just before this thread's add landed, i.e. the thread's place in line.
__global__ void atomic_sum(const int* x, int* s, int* before) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  before[i] = atomicAdd(&s[0], x[i]);
}

// Fewer atomics: the block first adds its own values (here the simple way, thread 0 walks the
// staged copy in shared memory), then one thread per block updates s[0]: atomically, or with
// the unprotected read-add-write that loses whole block sums.
__global__ void staged_sum(const int* x, int* s, int use_atomic) {
  __shared__ int staging[kMaxBlock];
  staging[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int local = 0;
    for (unsigned j = 0; j < blockDim.x; ++j) local = local + staging[j];
    if (use_atomic)
      atomicAdd(&s[0], local);
    else
      traced(s[0]) = traced(s[0]) + local;
  }
}

// Contention. Thread i adds 1 to counters[i % spread]. With spread 1 every thread in the grid
// queues for the same address; with a large spread the adds proceed side by side.
__global__ void spread_add(int* counters, int spread) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&counters[i % spread], 1);
}

// Counting in float. Every thread adds 1 to an unsigned counter and 1.0f to a float counter.
// A float has 24 significant bits: at 2^24 = 16777216 the next float is 16777218, so adding 1.0f
// rounds back to 16777216 and the float counter stops while the unsigned one goes on.
__global__ void count_both(float* float_count, unsigned* int_count) {
  atomicAdd(int_count, 1u);
  atomicAdd(float_count, 1.0f);
}

}  // namespace coop::lessons::atomics_and_races
