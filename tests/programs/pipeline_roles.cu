// A block-wide cuda::pipeline whose threads say their role: the first warp produces (copies tile
// after tile into two stages of shared memory), the second consumes. make_pipeline counts the
// producers; each stage's barriers then wait for all of them, or for all the consumers.
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kTile = 32, kStages = 2, kTiles = 5, kBlocks = 2;

__global__ void produce_consume(const int* in, int* out) {
  __shared__ int stage[kStages][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  cg::thread_block block = cg::this_thread_block();
  const bool producer = block.thread_rank() < kTile;
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(
      block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const int lane = int(block.thread_rank()) % kTile;
  const int* mine = in + blockIdx.x * kTiles * kTile;
  for (int t = 0; t < kTiles; ++t) {
    if (producer) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[t % kStages][lane], &mine[t * kTile + lane], sizeof(int), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      // A neighbour's element: only the whole stage having landed makes reading it safe.
      out[(blockIdx.x * kTiles + t) * kTile + lane] =
          stage[t % kStages][(lane + 1) % kTile] * 3 + t;
      pipe.consumer_release();
    }
  }
}

int main() {
  const int n = kBlocks * kTiles * kTile;
  static int h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = (i * 29) % 97 - 30;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  produce_consume<<<kBlocks, 2 * kTile>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int tile = i / kTile, lane = i % kTile;
    const int want = h_in[tile * kTile + (lane + 1) % kTile] * 3 + tile % kTiles;
    if (h_out[i] != want && ++wrong <= 5)
      std::printf("out[%d] = %d, expected %d\n", i, h_out[i], want);
  }
  std::printf("%s (%d wrong)\n", wrong == 0 ? "PASSED" : "FAILED", wrong);
  cudaFree(d_in);
  cudaFree(d_out);
  return wrong == 0 ? 0 : 1;
}
