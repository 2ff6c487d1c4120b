// cg::reduce of a float with the int operator: CUDA's Cooperative Groups refuse it at compile
// time ("Operator and argument types differ"), and so does coopviz, on both backends.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void mixed(float* out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(warp, 1.5f, cg::plus<int>());
}

int main() {
  float* d_out;
  cudaMalloc(&d_out, 32 * sizeof(float));
  mixed<<<1, 32>>>(d_out);
  cudaDeviceSynchronize();
  return 0;
}
