// Warp intrinsics without Cooperative Groups: a shuffle-down sum per warp, a ballot of odd values,
// the active mask inside a branch, a width-8 xor butterfly and __syncwarp between shared-memory
// steps. Checked against the host.
#include <cstdio>
#include <vector>

__global__ void warp_ops(const int* in, int* sums, unsigned* ballots, unsigned* active,
                         int* segment_max, int* neighbour) {
  __shared__ int slot[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize, warp = i / warpSize;
  int v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (lane == 0) sums[warp] = v;
  const unsigned odd = __ballot_sync(0xffffffffu, in[i] % 2);
  if (lane == 0) ballots[warp] = odd;
  if (in[i] % 3 == 0) {
    const unsigned here = __activemask();
    if (__shfl_sync(here, lane, __ffs(here) - 1) == lane) active[warp] = here;
  }
  int m = in[i];
  for (int x = 4; x > 0; x /= 2) {
    const int other = __shfl_xor_sync(0xffffffffu, m, x, 8);
    m = other > m ? other : m;
  }
  segment_max[i] = m;
  slot[threadIdx.x] = in[i];
  __syncwarp();
  neighbour[i] = slot[(threadIdx.x & ~31) + (lane + 1) % 32];
}

int main() {
  const int n = 128, warps = n / 32;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37 + 11) % 101;
  int *d_in, *d_sums, *d_segment_max, *d_neighbour;
  unsigned *d_ballots, *d_active;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sums, warps * sizeof(int));
  cudaMalloc(&d_ballots, warps * sizeof(unsigned));
  cudaMalloc(&d_active, warps * sizeof(unsigned));
  cudaMalloc(&d_segment_max, n * sizeof(int));
  cudaMalloc(&d_neighbour, n * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  warp_ops<<<2, 64>>>(d_in, d_sums, d_ballots, d_active, d_segment_max, d_neighbour);
  std::vector<int> sums(warps), segment_max(n), neighbour(n);
  std::vector<unsigned> ballots(warps), active(warps);
  cudaMemcpy(sums.data(), d_sums, warps * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(ballots.data(), d_ballots, warps * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(active.data(), d_active, warps * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(segment_max.data(), d_segment_max, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(neighbour.data(), d_neighbour, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int w = 0; w < warps; ++w) {
    int sum = 0;
    unsigned odd = 0, threes = 0;
    for (int l = 0; l < 32; ++l) {
      sum += h[w * 32 + l];
      odd |= unsigned(h[w * 32 + l] % 2) << l;
      threes |= unsigned(h[w * 32 + l] % 3 == 0) << l;
    }
    bad += sums[w] != sum;
    bad += ballots[w] != odd;
    bad += threes != 0 && active[w] != threes;
  }
  for (int i = 0; i < n; ++i) {
    int m = 0;
    for (int k = i & ~7; k < (i & ~7) + 8; ++k) m = h[k] > m ? h[k] : m;
    bad += segment_max[i] != m;
    bad += neighbour[i] != h[(i & ~31) + (i % 32 + 1) % 32];
  }
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
