// Double buffering with cuda::barrier: while a block works on one tile in shared memory,
// cuda::memcpy_async already brings in the next. Each buffer has its own barrier, whose phase
// completes only once the copy into that buffer has landed, so waiting on it is all it takes.
#include <cooperative_groups.h>
#include <cuda/barrier>

#include <cstdio>
#include <utility>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kTile = 128;

__global__ void weighted_sums(const float* in, float* out, int tiles_per_block) {
  __shared__ alignas(16) float buffer[2][kTile];
  __shared__ block_barrier ready[2];
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&ready[0], block.size());
    init(&ready[1], block.size());
  }
  block.sync();
  const float* mine = in + blockIdx.x * tiles_per_block * kTile;
  const auto tile_bytes = cuda::aligned_size_t<16>(sizeof(float) * kTile);
  cuda::memcpy_async(block, buffer[0], mine, tile_bytes, ready[0]);
  float sum = 0;
  for (int t = 0; t < tiles_per_block; ++t) {
    const int now = t % 2, next = 1 - now;
    if (t + 1 < tiles_per_block)
      cuda::memcpy_async(block, buffer[next], mine + (t + 1) * kTile, tile_bytes, ready[next]);
    if (t % 2 == 0) {
      ready[now].arrive_and_wait();
    } else {
      block_barrier::arrival_token token = ready[now].arrive();
      ready[now].wait(std::move(token));
    }
    sum += buffer[now][block.thread_rank()] * float(t + 1);
    // Everyone has read buffer[now] before the next iteration copies into it again.
    block.sync();
  }
  out[blockIdx.x * kTile + block.thread_rank()] = sum;
}

int main() {
  const int blocks = 3, tiles = 5, n = blocks * tiles * kTile;
  static float h_in[n], h_out[blocks * kTile];
  for (int i = 0; i < n; ++i) h_in[i] = float((i * 7) % 13) - 6.0f;
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  weighted_sums<<<blocks, kTile>>>(d_in, d_out, tiles);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = err != cudaSuccess;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < kTile; ++i) {
      float want = 0;
      for (int t = 0; t < tiles; ++t) want += h_in[(b * tiles + t) * kTile + i] * float(t + 1);
      bad += h_out[b * kTile + i] != want;
    }
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
