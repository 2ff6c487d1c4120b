// cg::exclusive_scan over a tile whose size is known only at run time (tiled_partition(block, 32)
// gives a thread_group): CUDA refuses it at compile time, as for a whole block; only a
// thread_block_tile<N> or a coalesced_group can be scanned.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

__global__ void offsets(const int* counts, int* out) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  out[threadIdx.x] = cg::exclusive_scan(tile, counts[threadIdx.x], cg::plus<int>());
}

int main() {
  int *d_counts, *d_out;
  cudaMalloc(&d_counts, 64 * sizeof(int));
  cudaMalloc(&d_out, 64 * sizeof(int));
  offsets<<<1, 64>>>(d_counts, d_out);
  cudaDeviceSynchronize();
  return 0;
}
