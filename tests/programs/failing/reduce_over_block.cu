// cg::reduce over a whole thread block: CUDA's Cooperative Groups reduce only a tile or a
// coalesced group ("This group does not exclusively represent a tile"), and so does coopviz.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void block_sum(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  const int sum = cg::reduce(block, in[block.thread_rank()], cg::plus<int>());
  if (block.thread_rank() == 0) *out = sum;
}

int main() {
  int *d_in, *d_out;
  cudaMalloc(&d_in, 128 * sizeof(int));
  cudaMalloc(&d_out, sizeof(int));
  block_sum<<<1, 128>>>(d_in, d_out);
  cudaDeviceSynchronize();
  return 0;
}
