// expect: fail — uses cg::reduce, which the spec forbids (shuffles only)
// Exercise: each warp-sized tile sums its values with shuffles (warp-collectives lesson).
// Build it with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check tile-shuffle-sum solution.cu`.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

// sums[t] = the sum of input[i] over the 32 indices i of the grid's tile t (0 where i >= n).
__global__ void tile_sums(const int* input, int* sums, int n) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? input[i] : 0;
  value = cg::reduce(tile, value, cg::plus<int>());
  if (tile.thread_rank() == 0) sums[i / 32] = value;
}

int main() {
  const int n = 1024, threads = 256, blocks = n / threads, tiles = n / 32;
  std::vector<int> input(n);
  std::mt19937 rng(3);
  for (int& x : input) x = int(rng() % 50) - 10;

  int *d_input, *d_sums;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_sums, tiles * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_sums, 0, tiles * sizeof(int));
  tile_sums<<<blocks, threads>>>(d_input, d_sums, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("tile_sums: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> sums(tiles);
  cudaMemcpy(sums.data(), d_sums, tiles * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int t = 0; t < tiles; ++t) {
    int want = 0;
    for (int i = t * 32; i < (t + 1) * 32; ++i) want += input[i];
    wrong += sums[t] != want;
  }
  printf("%d of %d tile sums right: %s\n", tiles - wrong, tiles, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_sums);
  return wrong ? 1 : 0;
}
