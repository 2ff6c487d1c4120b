// A 16-byte value shuffled across a 64-thread tile: CUDA's Cooperative Groups carry at most 8
// bytes in a collective of a tile that spans warps, and refuse this at compile time; so does
// coopviz, on both backends.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void across(uint4* out) {
  cg::thread_block_tile<64> pair = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = pair.shfl(make_uint4(threadIdx.x, 0, 0, 0), 3);
}

int main() {
  uint4* d_out;
  cudaMalloc(&d_out, 64 * sizeof(uint4));
  across<<<1, 64>>>(d_out);
  cudaDeviceSynchronize();
  return 0;
}
