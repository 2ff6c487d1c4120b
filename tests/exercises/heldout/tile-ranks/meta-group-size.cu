// expect: fail — uses meta_group_size() (how many tiles) instead of meta_group_rank()
// Exercise: where is each thread? Its tile in the block and its rank in the tile
// (tiled-partitions lesson). Build it with nvcc, or run it with `coopviz run solution.cu`;
// check it with `coopviz exercise check tile-ranks solution.cu`.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

// For each thread of the grid with global index i < n: out[i] = 100 * (its 8-thread tile's
// number within its block) + (its rank within that tile).
__global__ void tile_ranks(int* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 100 * int(tile.meta_group_size()) + int(tile.thread_rank());
}

int main() {
  const int n = 64, threads = 64;
  int* d_out;
  cudaMalloc(&d_out, n * sizeof(int));
  tile_ranks<<<1, threads>>>(d_out, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("tile_ranks: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != 100 * (i / 8) + i % 8;
  printf("thread 37: tile %d, rank %d\n", out[37] / 100, out[37] % 100);
  printf("%d of %d places right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
