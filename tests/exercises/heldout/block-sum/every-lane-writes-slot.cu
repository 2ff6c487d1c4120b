// expect: fail — every lane of a tile writes the same tile_sums slot: a redundant, self-racing rewrite
// Exercise: one sum per block, from the sums of its warp-sized tiles (block-reduce lesson).
// Build it with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check block-sum solution.cu`.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kTile = 32;
constexpr int kMaxTiles = 1024 / kTile;

// block_sums[b] = the sum of input[i] over the i < n that block b covers.
__global__ void block_sum(const int* input, int* block_sums, int n) {
  __shared__ int tile_sums[kMaxTiles];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = i < n ? input[i] : 0;
  const int tile_sum = cg::reduce(tile, value, cg::plus<int>());
  tile_sums[tile.meta_group_rank()] = tile_sum;  // all lanes hold the same sum
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const int lane = tile.thread_rank();
    const int partial = lane < int(tile.meta_group_size()) ? tile_sums[lane] : 0;
    const int sum = cg::reduce(tile, partial, cg::plus<int>());
    if (lane == 0) block_sums[blockIdx.x] = sum;
  }
}

int main() {
  const int n = 1024, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<int> input(n);
  std::mt19937 rng(7);
  for (int& x : input) x = int(rng() % 100);

  int *d_input, *d_sums;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  block_sum<<<blocks, threads>>>(d_input, d_sums, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("block_sum: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> sums(blocks);
  cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = b * threads; i < n && i < (b + 1) * threads; ++i) want += input[i];
    if (sums[b] != want) ++wrong;
  }
  printf("%d of %d block sums right: %s\n", blocks - wrong, blocks, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_sums);
  return wrong ? 1 : 0;
}
