// The grid-sync lesson as an ordinary CUDA program (`coopviz run lessons/grid_sync/grid_sync.cu`,
// or nvcc): grid_sync.cuh's kernel with its default final step (a 32-thread tile adds the partial
// sums), the lesson's input (mt19937 seeded with 1) and launch (a cooperative launch of 8 blocks
// of 256). Its trace equals the lesson's, event for event.
#include <cooperative_groups.h>

#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Binary tree over group g, halving from `half`: correct when half starts at g.size() / 2.
__device__ float tree_from(const cg::thread_group& g, float* temp, float val, unsigned half) {
  const unsigned rank = g.thread_rank();
  for (; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // rank 0 holds the sum
}

// Every block's tree, a grid-wide barrier, then the first 32 threads of block 0 add the partial
// sums: each every 32nd one, then a tree over the tile.
__global__ void reduce_grid_sync(const float* input, float* partial, float* total, int final_step) {
  __shared__ float temp[kMaxBlock];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  const float block_sum = tree_from(block, temp, input[grid.thread_rank()], block.size() / 2);
  if (block.thread_rank() == 0) partial[blockIdx.x] = block_sum;

  grid.sync();  // every block has written its partial sum, and all of them are visible

  if (final_step == 0) {
    if (grid.thread_rank() == 0) {
      float sum = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      *total = sum;
    }
    return;
  }
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  if (blockIdx.x == 0 && block.thread_rank() < 32) {
    float v = 0.0f;
    for (unsigned b = tile32.thread_rank(); b < gridDim.x; b += 32) v += partial[b];
    const unsigned first_half = final_step == 1 ? tile32.size() / 2 : blockDim.x / 2;
    const float sum = tree_from(tile32, temp, v, first_half);
    if (tile32.thread_rank() == 0) *total = sum;
  }
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  int final_step = 1;
  std::vector<float> input(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float& x : input) x = uniform(rng);
  float *d_input, *d_partial, *d_total;
  cudaMalloc(&d_input, n * sizeof(float));
  cudaMalloc(&d_partial, blocks * sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d_input, input.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(float));
  void* args[] = {&d_input, &d_partial, &d_total, &final_step};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)reduce_grid_sync, dim3(blocks), dim3(threads),
                                              args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("reduce_grid_sync: %s\n", cudaGetErrorString(e));
    return 1;
  }
  // The CPU does the same additions in the same order: block trees, then the tile's.
  std::vector<float> partial(blocks);
  for (int b = 0; b < blocks; ++b) {
    std::vector<float> v(input.begin() + b * threads, input.begin() + (b + 1) * threads);
    for (int half = threads / 2; half > 0; half /= 2)
      for (int r = 0; r < half; ++r) v[r] += v[r + half];
    partial[b] = v[0];
  }
  std::vector<float> lane(32, 0.0f);
  for (int r = 0; r < 32; ++r)
    for (int b = r; b < blocks; b += 32) lane[r] += partial[b];
  for (int half = 16; half > 0; half /= 2)
    for (int r = 0; r < half; ++r) lane[r] += lane[r + half];
  float total = 0;
  cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost);
  printf("total %.6f, CPU %.6f: %s\n", total, lane[0], total == lane[0] ? "PASSED" : "FAILED");
  cudaFree(d_input);
  cudaFree(d_partial);
  cudaFree(d_total);
  return total == lane[0] ? 0 : 1;
}
