// Values wider than 8 bytes through a tile's shuffles (a uint4 and a 24-byte struct, as CUDA's
// Cooperative Groups allow up to 32 bytes), a 64-thread tile with the shared scratch CUDA asks
// for, broadcasting one rank's value (a tile of more than 32 threads shuffles from one source
// rank for all), and CUDA's vector types with their make_ functions. 1000 items in blocks of 128:
// the last block's spare threads still take part in every shuffle, with zeros.
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

struct Stats {
  float sum;
  int count;
  double last;
};

__global__ void neighbours(const uint4* in, uint4* out, Stats* stats, int n) {
  __shared__ cg::block_tile_memory<128> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> pair_of_warps = cg::tiled_partition<64>(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint4 v = i < n ? in[i] : make_uint4(0, 0, 0, 0);
  const uint4 next = warp.shfl(v, (warp.thread_rank() + 1) % 32);
  const Stats mine = {float(v.x), 1, double(v.w)};
  const Stats partner = warp.shfl_xor(mine, 1);
  const int across = pair_of_warps.shfl(int(v.y), 37);
  if (i < n) {
    out[i] = make_uint4(next.x, next.y, next.z, unsigned(across));
    stats[i] = partner;
  }
}

int main() {
  const int n = 1000, block = 128, grid = (n + block - 1) / block;
  static uint4 h_in[n], h_out[n];
  static Stats h_stats[n];
  auto item = [](int k) {
    return k < n ? make_uint4(unsigned(k), unsigned(3 * k + 1), unsigned(k * k % 1000),
                              unsigned(7 * k))
                 : make_uint4(0, 0, 0, 0);
  };
  for (int k = 0; k < n; ++k) h_in[k] = item(k);
  uint4 *d_in, *d_out;
  Stats* d_stats;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMalloc(&d_stats, sizeof h_stats);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  neighbours<<<grid, block>>>(d_in, d_out, d_stats, n);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_stats, d_stats, sizeof h_stats, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int k = 0; k < n; ++k) {
    const uint4 next = item(k - k % 32 + (k % 32 + 1) % 32);
    const uint4 across = item(k - k % 64 + 37);
    const uint4 partner = item(k ^ 1);
    const uint4 got = h_out[k];
    const Stats s = h_stats[k];
    if (got.x != next.x || got.y != next.y || got.z != next.z || got.w != across.y ||
        s.sum != float(partner.x) || s.count != 1 || s.last != double(partner.w))
      ++wrong;
  }
  static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "CUDA's uint4");
  static_assert(sizeof(double3) == 24 && alignof(double3) == 8, "CUDA's double3");
  static_assert(alignof(short2) == 4 && alignof(longlong2) == 16, "CUDA's alignments");
  const double2 d = make_double2(1.5, 2.5);
  const uchar4 c = make_uchar4(1, 2, 3, 4);
  if (d.x + d.y != 4.0 || c.x + c.y + c.z + c.w != 10) ++wrong;
  std::printf("%s (%d wrong)\n", wrong == 0 ? "PASSED" : "FAILED", wrong);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_stats);
  return wrong == 0 ? 0 : 1;
}
