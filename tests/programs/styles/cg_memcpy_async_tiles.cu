// expect: async copy PASSED
// Staging tiles of global memory into shared memory with cg::memcpy_async and cg::wait, as the
// CUDA 11 asynchronous-copy examples do: the whole block copies one tile per iteration of a
// grid-stride loop over tiles, waits, scales it in shared memory, and writes it back.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#define TILE 256

__global__ void scale_tiles(const float *in, float *out, int tiles, float factor) {
  __shared__ float staged[TILE];
  cg::thread_block block = cg::this_thread_block();
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    cg::memcpy_async(block, staged, in + t * TILE, sizeof(float) * TILE);
    cg::wait(block);
    for (int k = block.thread_rank(); k < TILE; k += block.size()) staged[k] *= factor;
    block.sync();
    for (int k = block.thread_rank(); k < TILE; k += block.size()) out[t * TILE + k] = staged[k];
    block.sync();
  }
}

int main() {
  const int tiles = 10, n = tiles * TILE;
  std::vector<float> h(n), got(n);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 37);
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale_tiles<<<4, 64>>>(d_in, d_out, tiles, 1.5f);
  cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != h[i] * 1.5f;
  printf("%d of %d wrong (%s)\n", bad, n, cudaGetErrorString(cudaGetLastError()));
  cudaFree(d_in);
  cudaFree(d_out);
  printf("async copy %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
