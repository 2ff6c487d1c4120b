// A 64-bin histogram: each block counts into shared memory with atomicAdd, then adds its bins to
// the global ones. The block size is the one cudaOccupancyMaxPotentialBlockSize picks, the grid a
// few blocks per SM over a grid-stride loop, and the input size not a multiple of either.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kBins = 64;

__global__ void histogram(const unsigned char* in, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  cg::thread_block block = cg::this_thread_block();
  for (int b = block.thread_rank(); b < kBins; b += block.size()) local[b] = 0;
  block.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % kBins], 1u);
  block.sync();
  for (int b = block.thread_rank(); b < kBins; b += block.size())
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 10007;
  std::vector<unsigned char> h(n);
  for (int i = 0; i < n; ++i) h[i] = (unsigned char)((i * 2654435761u) >> 24);
  int min_grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, histogram, 0, 0);
  if (block > 256) block = 256;  // keep the trace small; any size works
  const int grid = 5;
  unsigned char* d_in;
  unsigned* d_bins;
  cudaMalloc(&d_in, n);
  cudaMalloc(&d_bins, kBins * sizeof(unsigned));
  cudaMemcpy(d_in, h.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, kBins * sizeof(unsigned));
  histogram<<<grid, block>>>(d_in, n, d_bins);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("histogram: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<unsigned> bins(kBins), expect(kBins, 0);
  cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (unsigned char c : h) ++expect[c % kBins];
  int bad = 0;
  for (int b = 0; b < kBins; ++b) bad += bins[b] != expect[b];
  printf("block %d (suggested for a grid of at least %d): %s (%d wrong)\n", block, min_grid,
         bad ? "FAILED" : "PASSED", bad);
  cudaFree(d_in);
  cudaFree(d_bins);
  return bad ? 1 : 0;
}
