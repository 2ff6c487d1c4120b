// expect: fail — inclusive offsets read at tile_totals[t - 1]: tile 0 reads tile_totals[-1]
// Exercise: a running total over a whole block, from scans of its tiles (collectives lesson).
// Build it with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check block-scan solution.cu`.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxTiles = 1024 / 32;

// out[i] = input[first] + ... + input[i], first being the first index of i's block (i < n).
__global__ void block_scan(const int* input, int* out, int n) {
  __shared__ int tile_totals[kMaxTiles];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = i < n ? input[i] : 0;
  int running = cg::inclusive_scan(tile, value);
  if (tile.thread_rank() == tile.num_threads() - 1) tile_totals[tile.meta_group_rank()] = running;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const int lane = tile.thread_rank();
    const int total = lane < int(tile.meta_group_size()) ? tile_totals[lane] : 0;
    const int upto = cg::inclusive_scan(tile, total);
    if (lane < int(tile.meta_group_size())) tile_totals[lane] = upto;
  }
  block.sync();
  const int t = tile.meta_group_rank();
  running += tile_totals[t - 1];  // the tiles before mine
  if (i < n) out[i] = running;
}

int main() {
  const int n = 512, threads = 256, blocks = n / threads;
  std::vector<int> input(n);
  std::mt19937 rng(5);
  for (int& x : input) x = int(rng() % 10);

  int *d_input, *d_out;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, n * sizeof(int));
  block_scan<<<blocks, threads>>>(d_input, d_out, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("block_scan: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0, running = 0;
  for (int i = 0; i < n; ++i) {
    running = (i % threads == 0 ? 0 : running) + input[i];
    wrong += out[i] != running;
  }
  printf("%d of %d running totals right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
