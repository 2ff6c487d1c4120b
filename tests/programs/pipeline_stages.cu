// cuda::pipeline, two ways. A block-wide pipeline of three stages: the block copies tile after
// tile into shared memory while it consumes the tiles copied before. And each thread's own
// pipeline (cuda::make_pipeline()): a thread copies its elements ahead and waits with
// pipeline_consumer_wait_prior, and the cp.async primitives of <cuda_pipeline.h> do the same.
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <cuda/pipeline>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kTile = 64;
constexpr int kStages = 3;

__global__ void staged_block(const int* in, int* out, int tiles) {
  __shared__ int stage[kStages][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  cg::thread_block block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
  const int* mine = in + blockIdx.x * tiles * kTile;
  int fetched = 0;
  for (; fetched < tiles && fetched < kStages; ++fetched) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, stage[fetched % kStages], mine + fetched * kTile, sizeof(int) * kTile,
                       pipe);
    pipe.producer_commit();
  }
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    // Reads a neighbour's element: only the whole stage having landed makes that safe.
    const int r = block.thread_rank();
    out[(blockIdx.x * tiles + t) * kTile + r] = stage[t % kStages][(r + 1) % kTile] * 2 + t;
    pipe.consumer_release();
    if (fetched < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, stage[fetched % kStages], mine + fetched * kTile,
                         sizeof(int) * kTile, pipe);
      pipe.producer_commit();
      ++fetched;
    }
  }
}

__global__ void staged_threads(const int* in, int* out, int per_thread) {
  __shared__ int slots[2][kTile];
  const int t = threadIdx.x, first = (blockIdx.x * kTile + t) * per_thread;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&slots[0][t], &in[first], sizeof(int), pipe);
  pipe.producer_commit();
  for (int i = 0; i < per_thread; ++i) {
    if (i + 1 < per_thread) {
      pipe.producer_acquire();
      cuda::memcpy_async(&slots[(i + 1) % 2][t], &in[first + i + 1], sizeof(int), pipe);
      pipe.producer_commit();
      cuda::pipeline_consumer_wait_prior<1>(pipe);
    } else {
      pipe.consumer_wait();
    }
    out[first + i] = slots[i % 2][t] + 1;
    pipe.consumer_release();
  }
  // The primitives: one copy, committed, waited for.
  __pipeline_memcpy_async(&slots[0][t], &in[first], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[first] += slots[0][t] * 1000;
}

int main() {
  const int blocks = 2, tiles = 7, n = blocks * tiles * kTile, per_thread = 4;
  static int h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = (i * 37) % 101 - 50;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  staged_block<<<blocks, kTile>>>(d_in, d_out, tiles);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < tiles; ++t)
      for (int r = 0; r < kTile; ++r) {
        const int base = (b * tiles + t) * kTile;
        bad += h_out[base + r] != h_in[base + (r + 1) % kTile] * 2 + t;
      }
  const int m = blocks * kTile * per_thread;
  staged_threads<<<blocks, kTile>>>(d_in, d_out, per_thread);
  cudaMemcpy(h_out, d_out, sizeof(int) * m, cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; ++i)
    bad += h_out[i] != h_in[i] + 1 + (i % per_thread == 0 ? h_in[i] * 1000 : 0);
  bad += cudaGetLastError() != cudaSuccess;
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
