// A 64-thread tile's shfl with a different source rank in each thread: on a GPU the two warps
// wait for each other for ever (past 32 threads, shfl broadcasts one rank's value); the emulator
// stops it at line 12 and says why.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void rotate(int* out) {
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  const int r = int(tile.thread_rank());
  const int from = (r + 32) % 64;
  out[threadIdx.x] = tile.shfl(r, from);
}

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 128 * sizeof(int));
  rotate<<<1, 128>>>(d);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  cudaFree(d);
  return e == cudaSuccess ? 0 : 1;
}
