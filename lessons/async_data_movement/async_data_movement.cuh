// Asynchronous copies from global into shared memory with cg::memcpy_async: wait and
// wait_prior, a double-buffered pipeline that copies the next tile while computing on this one,
// and the same pipeline moving 16-byte instead of 4-byte pieces.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::async_data_movement {

constexpr int kMaxBlock = 256;
constexpr int kPerThread = 4;  // floats per thread in a pipeline tile

// Four floats as one 16-byte piece. memcpy_async takes its piece size from the pointer type:
// copying Quads moves 16 bytes per copy instruction, copying floats 4 bytes.
struct alignas(16) Quad {
  float x, y, z, w;
};

// Two copies in flight, waited for one at a time. wait_prior<1> returns once all but the newest
// batch have landed (here: the first copy); wait returns once everything has.
__global__ void two_copies(const float* in, float* out) {
  __shared__ float first[kMaxBlock];
  __shared__ float second[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank(), n = block.size();
  const float* src = in + blockIdx.x * 2 * n;
  cg::memcpy_async(block, first, src, sizeof(float) * n);
  cg::memcpy_async(block, second, src + n, sizeof(float) * n);
  cg::wait_prior<1>(block);            // first has landed; second may still be on its way
  const float a = first[(t + 1) % n];  // a neighbour's element: the whole block's copy is needed
  cg::wait(block);                     // second has landed too
  const float b = second[(t + 1) % n];
  out[blockIdx.x * n + t] = a + b;
}

// Starts the block's copy of `count` floats, as 4-byte or as 16-byte pieces.
__device__ void fetch(const cg::thread_block& block, float* dst, const float* src, int count,
                      int wide) {
  if (wide)
    cg::memcpy_async(block, reinterpret_cast<Quad*>(dst), reinterpret_cast<const Quad*>(src),
                     sizeof(float) * count);
  else
    cg::memcpy_async(block, dst, src, sizeof(float) * count);
}

// Each block sums `tiles` consecutive tiles of kPerThread floats per thread. Two buffers take
// turns: while tile k is summed from one, tile k + 1 is already being copied into the other.
__global__ void pipeline(const float* in, float* out, int tiles, int wide) {
  __shared__ Quad buffer0[kMaxBlock];  // Quads, so that both buffers are 16-byte aligned
  __shared__ Quad buffer1[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank(), n = block.size() * kPerThread;
  const float* src = in + blockIdx.x * tiles * n;
  float* buffers[2] = {reinterpret_cast<float*>(buffer0), reinterpret_cast<float*>(buffer1)};
  float sum = 0;
  fetch(block, buffers[0], src, n, wide);
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      fetch(block, buffers[(k + 1) % 2], src + (k + 1) * n, n, wide);  // the next tile, in flight
      cg::wait_prior<1>(block);  // tile k has landed; tile k + 1 may still be copying
    } else {
      cg::wait(block);  // the last tile: nothing newer to leave in flight
    }
    const float* tile = buffers[k % 2];
    for (int j = 0; j < kPerThread; ++j) sum += tile[t * kPerThread + j];
    sum += 0.5f * tile[(t * kPerThread + kPerThread) % n];  // copied by the next thread
    block.sync();  // all reads of this buffer are done before the copy into it at step k + 1
  }
  out[blockIdx.x * block.size() + t] = sum;
}

}  // namespace coop::lessons::async_data_movement
