// cg::memcpy_async shared by a tile made at run time (a thread_group): CUDA accepts only a block,
// a thread_block_tile<N> or a coalesced_group ("Async copy is only supported for groups that
// represent private shared memory"), and so does coopviz.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

__global__ void stage(const float* in, float* out) {
  __shared__ float staged[64];
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  cg::memcpy_async(tile, staged, in, sizeof(float) * 64);
  cg::wait(tile);
  out[threadIdx.x] = staged[threadIdx.x];
}

int main() {
  float *d_in, *d_out;
  cudaMalloc(&d_in, 64 * sizeof(float));
  cudaMalloc(&d_out, 64 * sizeof(float));
  stage<<<1, 64>>>(d_in, d_out);
  cudaDeviceSynchronize();
  return 0;
}
