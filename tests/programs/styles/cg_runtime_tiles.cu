// expect: runtime tiles PASSED
// Cooperative Groups with the tile size known only at run time, as the CG blog post introduced
// them: a thread_group from tiled_partition(block, size), a device function that takes any
// thread_group and sums through shared memory with g.sync(), and the tile size passed in from
// the command line (4, 8 and 16 tried here).
#include <cooperative_groups.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

__device__ int reduce_sum(cg::thread_group g, int *temp, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    temp[lane] = val;
    g.sync();
    if (lane < i) val += temp[lane + i];
    g.sync();
  }
  return val;
}

__global__ void tile_sums(const int *in, int *out, int tile_size) {
  extern __shared__ int workspace[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, tile_size);
  int *my_space = workspace + (block.thread_rank() / tile_size) * tile_size;
  int sum = reduce_sum(tile, my_space, in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (tile.thread_rank() == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / tile_size] = sum;
}

int main(int argc, char **argv) {
  const int blocks = 3, threads = 64, n = blocks * threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = (i * 5) % 11;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  bool ok = true;
  const int sizes[] = {4, 8, 16};
  for (int tile : sizes) {
    if (argc > 1 && atoi(argv[1]) != tile) continue;
    tile_sums<<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out, tile);
    std::vector<int> got(n / tile);
    cudaMemcpy(got.data(), d_out, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < n / tile; t++) {
      int want = 0;
      for (int k = 0; k < tile; k++) want += h[t * tile + k];
      wrong += got[t] != want;
    }
    printf("tiles of %2d: %d of %d sums wrong\n", tile, wrong, n / tile);
    ok = ok && wrong == 0;
  }
  cudaFree(d_in);
  cudaFree(d_out);
  printf("runtime tiles %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
