// Collectives on a program's own types, as CUDA's Cooperative Groups allow them: cg::reduce and
// the scans of a struct with the program's own operator (a function object and a lambda) over
// a warp tile and a labeled partition, and invoke_one_broadcast of values wider than 8 bytes (a
// uint4 and a 32-byte struct) over a warp tile, and of 8 bytes over a 64-thread tile (the most a
// tile across warps carries). 256 values in blocks of 128.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cstdio>

namespace cg = cooperative_groups;

// What a group's values span: 16 bytes, no padding, so both backends hash it alike in the trace.
struct Range {
  int low, high, count, sum;
};

struct MergeRanges {
  __host__ __device__ Range operator()(const Range& a, const Range& b) const {
    return {a.low < b.low ? a.low : b.low, a.high > b.high ? a.high : b.high, a.count + b.count,
            a.sum + b.sum};
  }
};

struct Quad {
  long long a, b, c, d;
};

constexpr int kBlock = 128, kBlocks = 2, kN = kBlock * kBlocks;
constexpr int kOut = 5;  // Ranges per thread

__global__ void summarize(const int* in, Range* ranges, uint4* firsts, uint2* pair_firsts,
                          Quad* quads) {
  cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<64> pair = cg::tiled_partition<64>(block);
  const int i = blockIdx.x * kBlock + block.thread_rank();
  const int v = in[i];
  const Range mine = {v, v, 1, v};
  Range* out = ranges + kOut * i;
  out[0] = cg::reduce(warp, mine, MergeRanges());
  out[1] = cg::inclusive_scan(warp, mine, MergeRanges());
  out[2] = cg::exclusive_scan(warp, mine, [](Range a, Range b) { return MergeRanges()(a, b); });
  const cg::coalesced_group same = cg::labeled_partition(warp, v % 3);
  out[3] = cg::reduce(same, mine, MergeRanges());
  out[4] = cg::inclusive_scan(same, mine, MergeRanges());
  firsts[i] = cg::invoke_one_broadcast(
      warp, [&] { return make_uint4(unsigned(v), unsigned(v) + 1, unsigned(v) * 2, unsigned(i)); });
  // Across warps, cooperative_groups' collectives carry at most 8 bytes.
  pair_firsts[i] =
      cg::invoke_one_broadcast(pair, [&] { return make_uint2(unsigned(v), unsigned(i)); });
  quads[i] = cg::invoke_one_broadcast(warp, [&] { return Quad{v, 2LL * v, -v, 1LL << 40}; });
}

bool same(const Range& a, const Range& b) {
  return a.low == b.low && a.high == b.high && a.count == b.count && a.sum == b.sum;
}

int main() {
  static int h_in[kN];
  static Range h_ranges[kN * kOut];
  static uint4 h_firsts[kN];
  static uint2 h_pair_firsts[kN];
  static Quad h_quads[kN];
  for (int k = 0; k < kN; ++k) h_in[k] = (k * 53 + 11) % 89 - 40;
  int* d_in;
  Range* d_ranges;
  uint4* d_firsts;
  uint2* d_pair_firsts;
  Quad* d_quads;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_ranges, sizeof h_ranges);
  cudaMalloc(&d_firsts, sizeof h_firsts);
  cudaMalloc(&d_pair_firsts, sizeof h_pair_firsts);
  cudaMalloc(&d_quads, sizeof h_quads);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  summarize<<<kBlocks, kBlock>>>(d_in, d_ranges, d_firsts, d_pair_firsts, d_quads);
  cudaMemcpy(h_ranges, d_ranges, sizeof h_ranges, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_firsts, d_firsts, sizeof h_firsts, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_pair_firsts, d_pair_firsts, sizeof h_pair_firsts, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_quads, d_quads, sizeof h_quads, cudaMemcpyDeviceToHost);

  // The CPU reference: ranges over members in rank order, empty ({}) before rank 0.
  auto range_of = [&](int first, int last, int step, auto keep) {
    Range r{};
    bool any = false;
    for (int k = first; k <= last; k += step)
      if (keep(k)) {
        const Range one = {h_in[k], h_in[k], 1, h_in[k]};
        r = any ? MergeRanges()(r, one) : one;
        any = true;
      }
    return r;
  };
  auto all = [](int) { return true; };
  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    const int warp0 = i - i % 32, pair0 = i - i % 64;
    auto same_label = [&](int k) { return h_in[k] % 3 == h_in[i] % 3; };
    const Range want[kOut] = {range_of(warp0, warp0 + 31, 1, all), range_of(warp0, i, 1, all),
                              range_of(warp0, i - 1, 1, all),
                              range_of(warp0, warp0 + 31, 1, same_label),
                              range_of(warp0, i, 1, same_label)};
    for (int k = 0; k < kOut; ++k)
      if (!same(h_ranges[kOut * i + k], want[k]) && ++wrong <= 5)
        std::printf("thread %d range %d: {%d %d %d %d}\n", i, k, h_ranges[kOut * i + k].low,
                    h_ranges[kOut * i + k].high, h_ranges[kOut * i + k].count,
                    h_ranges[kOut * i + k].sum);
    // Every member heard the one chosen member, whichever the hardware picked.
    const uint4 w = h_firsts[i], w0 = h_firsts[warp0];
    const uint2 p = h_pair_firsts[i], p0 = h_pair_firsts[pair0];
    const int wk = int(w.w), pk = int(p.y);
    const bool warp_ok = w.x == w0.x && w.w == w0.w && wk >= warp0 && wk < warp0 + 32 &&
                         w.x == unsigned(h_in[wk]) && w.y == w.x + 1 && w.z == w.x * 2;
    const bool pair_ok =
        p.x == p0.x && p.y == p0.y && pk >= pair0 && pk < pair0 + 64 && p.x == unsigned(h_in[pk]);
    const Quad q = h_quads[i];
    const bool quad_ok =
        q.a == h_quads[warp0].a && q.b == 2 * q.a && q.c == -q.a && q.d == (1LL << 40);
    if (!(warp_ok && pair_ok && quad_ok) && ++wrong <= 5)
      std::printf("thread %d: a broadcast differs\n", i);
  }
  std::printf("%s (%d wrong)\n", wrong == 0 ? "PASSED" : "FAILED", wrong);
  cudaFree(d_in);
  cudaFree(d_ranges);
  cudaFree(d_firsts);
  cudaFree(d_pair_firsts);
  cudaFree(d_quads);
  return wrong == 0 ? 0 : 1;
}
