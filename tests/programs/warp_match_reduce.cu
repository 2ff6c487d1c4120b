// The warp match and reduce intrinsics (sm_80+): __match_any_sync groups lanes holding equal
// values, __match_all_sync says whether every lane agrees, and __reduce_*_sync combine the mask's
// lanes (all 32, then the low 16 alone). Each warp writes its results; the host checks them.
#include <cstdio>
#include <vector>

constexpr int kResults = 14;

__global__ void match_and_reduce(unsigned* out) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned* mine = out + (warp * 32 + lane) * kResults;
  const unsigned full = 0xffffffffu;
  mine[0] = __match_any_sync(full, int(lane % 4));
  int same = -1;
  mine[1] = __match_all_sync(full, 7.5f, &same);
  mine[2] = unsigned(same);
  mine[3] = __match_all_sync(full, (unsigned long long)lane, &same);
  mine[4] = unsigned(same);
  mine[5] = unsigned(__reduce_add_sync(full, int(lane)));
  mine[6] = unsigned(__reduce_min_sync(full, int(lane) - 5));
  mine[7] = unsigned(__reduce_max_sync(full, int(lane) - 5));
  mine[8] = __reduce_min_sync(full, lane + 3u);
  mine[9] = __reduce_and_sync(full, lane | 0x100u);
  mine[10] = __reduce_or_sync(full, lane);
  mine[11] = __reduce_xor_sync(full, lane);
  mine[12] = mine[13] = 0;
  if (lane < 16) {
    mine[12] = __reduce_add_sync(0xffffu, lane);
    mine[13] = __match_any_sync(0xffffu, lane / 8);
  }
}

int main() {
  const int threads = 64;
  unsigned* d_out = nullptr;
  cudaMalloc(&d_out, threads * kResults * sizeof(unsigned));
  match_and_reduce<<<1, threads>>>(d_out);
  std::vector<unsigned> h(threads * kResults);
  cudaMemcpy(h.data(), d_out, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    const unsigned lane = t % 32, *r = &h[t * kResults];
    const unsigned expect[kResults] = {
        0x11111111u << (lane % 4), 0xffffffffu, 1, 0, 0, 496, unsigned(-5), 26, 3, 0x100, 31, 0,
        lane < 16 ? 120u : 0u, lane < 16 ? 0xffu << (lane / 8 * 8) : 0u};
    for (int k = 0; k < kResults; ++k)
      if (r[k] != expect[k]) {
        if (bad++ < 5) printf("thread %d result %d: %#x, expected %#x\n", t, k, r[k], expect[k]);
      }
  }
  printf("warp match and reduce: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
