// invoke_one_broadcast over a whole block: CUDA's Cooperative Groups have it only for tiles and
// coalesced groups (it shuffles the result), so coopviz refuses it at compile time too.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void from_block(int* out) {
  cg::thread_block block = cg::this_thread_block();
  out[threadIdx.x] = cg::invoke_one_broadcast(block, [] { return 7; });
}

int main() {
  int* d_out;
  cudaMalloc(&d_out, 64 * sizeof(int));
  from_block<<<1, 64>>>(d_out);
  cudaDeviceSynchronize();
  return 0;
}
