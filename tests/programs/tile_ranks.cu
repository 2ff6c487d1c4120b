// Every thread writes its rank in its 32-thread tile and the tile's sum of those ranks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void tile_ranks(int* rank, int* sums, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = tile.thread_rank();
  const int s = cg::reduce(tile, r, cg::plus<int>());
  if (i < n) {
    rank[i] = r;
    sums[i] = s;
  }
}

int main() {
  const int n = 256;
  int *d_rank, *d_sums;
  cudaMalloc(&d_rank, n * sizeof(int));
  cudaMalloc((void**)&d_sums, n * sizeof(int));
  tile_ranks<<<2, 128>>>(d_rank, d_sums, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceSynchronize();
  std::vector<int> rank(n), sums(n);
  cudaMemcpy(rank.data(), d_rank, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), d_sums, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += rank[i] != i % 32 || sums[i] != 31 * 32 / 2;
  cudaFree(d_rank);
  cudaFree(d_sums);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
