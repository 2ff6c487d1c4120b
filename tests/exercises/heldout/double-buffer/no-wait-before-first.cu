// expect: fail — the first iteration computes before its tile's copy is waited for (the wait sits at the loop's end)
// Exercise: stream tiles through two shared buffers, copying the next tile while using this one
// (async-data-movement lesson). Build it with nvcc, or run it with `coopviz run solution.cu`;
// check it with `coopviz exercise check double-buffer solution.cu`.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Starts the block's copy of tile `tile` (blockDim.x ints, fewer at the end of the input) into
// `buffer`.
__device__ void fetch(const cg::thread_block& block, int* buffer, const int* in, int tile, int n) {
  const int first = tile * int(block.size());
  const int count = min(int(block.size()), n - first);
  if (count > 0) cg::memcpy_async(block, buffer, in + first, sizeof(int) * count);
}

// The input is cut into tiles of blockDim.x ints; block b handles tiles b, b + gridDim.x, ...
// For each element i of a tile: out[i] = in[i] + in[next], next being the tile's next element
// (the tile's last wraps around to its first).
__global__ void tile_neighbours(const int* in, int* out, int n) {
  __shared__ int buffer0[kMaxBlock];
  __shared__ int buffer1[kMaxBlock];
  int* buffers[2] = {buffer0, buffer1};
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank(), size = block.size();
  const int tiles = (n + size - 1) / size;
  fetch(block, buffers[0], in, blockIdx.x, n);
  for (int tile = blockIdx.x, k = 0; tile < tiles; tile += gridDim.x, ++k) {
    fetch(block, buffers[(k + 1) % 2], in, tile + gridDim.x, n);
    const int* here = buffers[k % 2];
    const int first = tile * size, count = min(size, n - first);
    if (t < count) out[first + t] = here[t] + here[(t + 1) % count];
    cg::wait(block);
  }
}

int main() {
  const int n = 4096, threads = 256, blocks = 4;  // four tiles per block
  std::vector<int> in(n);
  std::mt19937 rng(9);
  for (int& x : in) x = int(rng() % 1000);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  tile_neighbours<<<blocks, threads>>>(d_in, d_out, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("tile_neighbours: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int first = i / threads * threads, count = std::min(threads, n - first);
    if (out[i] != in[i] + in[first + (i - first + 1) % count]) ++wrong;
  }
  printf("%d of %d elements right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_in);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
