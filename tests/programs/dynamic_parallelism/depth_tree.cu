// A tree of launches, in the style of CUDA's simple-print dynamic parallelism sample: the root
// grid's first thread starts a tree of 2-block grids fire-and-forget, each block's first thread
// launching the next level into its block's stream, and a summary grid into the root's tail
// launch stream. Each block counts itself at its depth. A tail launch runs only once the root
// grid and everything it launched are complete, so the summary must see every block of the tree.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int kLevels = 4;  // tree levels below the root
constexpr int kBlocks = 2;  // blocks of each grid of the tree

__device__ int blocks_at[kLevels + 1];  // blocks that ran at each depth
__device__ int failed_launches;

__global__ void level(int depth, int parent_block) {
  if (threadIdx.x != 0) return;
  atomicAdd(&blocks_at[depth], 1);
  if (depth < 2)
    printf("depth %d: block %d (launched by block %d)\n", depth, blockIdx.x, parent_block);
  if (depth == kLevels) return;
  level<<<kBlocks, 32>>>(depth + 1, blockIdx.x);
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&failed_launches, 1);
}

__global__ void summary(int* seen) {
  int total = 0;
  for (int d = 0; d <= kLevels; ++d) total += blocks_at[d];
  *seen = total;
}

__global__ void root(int* seen) {
  if (threadIdx.x == 0) {
    level<<<kBlocks, 32, 0, cudaStreamFireAndForget>>>(1, blockIdx.x);
    summary<<<1, 1, 0, cudaStreamTailLaunch>>>(seen);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&failed_launches, 1);
  }
}

int main() {
  int* d_seen = nullptr;
  cudaMalloc(&d_seen, sizeof(int));
  cudaMemset(d_seen, 0, sizeof(int));
  root<<<1, 64>>>(d_seen);
  cudaError_t e = cudaDeviceSynchronize();
  int seen = 0, failed = 0, at[kLevels + 1] = {};
  cudaMemcpy(&seen, d_seen, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(at, blocks_at, sizeof at);
  cudaMemcpyFromSymbol(&failed, failed_launches, sizeof failed);
  bool ok = e == cudaSuccess && failed == 0 && at[0] == 0;
  int expected_total = 0, width = 1;
  for (int d = 1; d <= kLevels; ++d) {
    width *= kBlocks;
    expected_total += width;
    std::printf("depth %d: %d blocks (expected %d)\n", d, at[d], width);
    ok = ok && at[d] == width;
  }
  std::printf("the tail launch saw %d blocks (expected %d): %s\n", seen, expected_total,
              ok && seen == expected_total ? "PASSED" : "FAILED");
  cudaFree(d_seen);
  return ok && seen == expected_total ? 0 : 1;
}
