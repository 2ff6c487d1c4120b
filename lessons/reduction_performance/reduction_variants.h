// The reduction-performance kernels as data, and what checks their sums: how each variant is
// launched, the input it sums, and how far its float sum may stray from the exact sum. The
// lesson's program (reduction_performance.cu) and coopviz's benchmark of the same kernels at large
// n (app/bench/reduce) both read this file, so each of these is written once. Plain C++17.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace reduction {

// [SECTION] The variants

// How a variant's grid follows from n: one thread per `per_thread` elements, or a fixed grid (as
// many blocks as fit on the device at once) that walks the array.
enum GridRule { kPerElement, kGridStride };
enum Family { kSeed, kProgression, kTuned };

struct Variant {
  const char* id;     // "seed-atomic": what --variant's help, the results and the benchmark say
  const char* title;  // "Seed 1: block tree + atomicAdd": what its checks are called
  const char* idea;   // what this step changes, in one line
  Family family;
  bool cooperative;  // launched with cudaLaunchCooperativeKernel (grid.sync())
  GridRule grid_rule;
  unsigned per_thread;      // elements per thread (what sizes a per-element grid)
  unsigned min_block;       // smallest block the kernel is written for
  bool power_of_two_block;  // the shared-memory trees halve the block each round
};

// The kernels in teaching order: the program's --variant=K runs the K-th, 0 all of them.
inline constexpr Variant kVariants[] = {
    {"seed-atomic", "Seed 1: block tree + atomicAdd",
     "one element per thread, a shared-memory tree per block, one atomicAdd per block", kSeed,
     false, kPerElement, 1, 64, true},
    {"seed-group", "Seed 2: the tree over a thread_group",
     "the same tree written once for any cg::thread_group, here the block", kSeed, false,
     kPerElement, 1, 64, true},
    {"seed-grid-sync", "Seed 3: cooperative launch, grid.sync()",
     "block partial sums, grid.sync(), then one thread adds them", kSeed, true, kGridStride, 1, 64,
     true},
    {"seed-tile32", "Seed 4: grid.sync(), then a 32-thread tile",
     "as seed 3, but a 32-thread tile adds the partial sums with the group tree", kSeed, true,
     kGridStride, 1, 64, true},
    {"interleaved", "1. Interleaved addressing",
     "tid % (2s) == 0 picks the adders: divergent warps and a slow modulo", kProgression, false,
     kPerElement, 1, 64, true},
    {"sequential", "2. Sequential addressing",
     "the first s threads add: whole warps work or skip, no bank conflicts", kProgression, false,
     kPerElement, 1, 64, true},
    {"first-add", "3. First add during load",
     "each thread loads two elements and adds them: half the blocks", kProgression, false,
     kPerElement, 2, 64, true},
    {"last-warp", "4. Last warp with tile shuffles",
     "the last 64 values are added by one warp in registers, without barriers", kProgression,
     false, kPerElement, 2, 64, true},
    {"grid-stride", "5. Several elements per thread",
     "a grid of a few blocks per SM walks the array; the tree runs once per block", kProgression,
     false, kGridStride, 1, 64, true},
    {"tile-reduce", "6. cg::reduce over 32-thread tiles",
     "warp-level cg::reduce replaces the shared-memory tree: one barrier", kProgression, false,
     kGridStride, 1, 32, false},
    {"vector-loads", "7. float4 loads", "16-byte loads: four elements per load instruction",
     kProgression, false, kGridStride, 4, 32, false},
    {"tuned", "Tuned for bandwidth",
     "four independent float4 loads in flight, last block adds the partial sums", kTuned, false,
     kGridStride, 4 * 4, 32, false},
};
inline constexpr int kVariantCount = int(sizeof kVariants / sizeof kVariants[0]);
// The tuned kernel's float4 accumulators (kUnroll in its kernel): its error bound counts them.
inline constexpr uint64_t kTunedAccumulators = 4;

// "tuned works in whole warps: ...", or "" when the block suits the variant.
inline std::string check_block(const Variant& v, unsigned block) {
  const std::string id = v.id;
  if (block < v.min_block || block > 1024)
    return id + " needs a block of " + std::to_string(v.min_block) + " to 1024 threads: got " +
           std::to_string(block);
  if (v.power_of_two_block && (block & (block - 1)) != 0)
    return id + " halves the block each round, so it needs a power-of-two block: got " +
           std::to_string(block);
  if (block % 32 != 0)
    return id + " works in whole warps: the block must be a multiple of 32, got " +
           std::to_string(block);
  return "";
}

inline uint64_t ceil_div(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// [SECTION] The rounding bound

// ceil(log2(v)): the rounds of a tree over v values.
inline uint64_t log2_ceil(uint64_t v) {
  uint64_t bits = 0;
  while (v > 1 && (uint64_t(1) << bits) < v) ++bits;
  return bits;
}

// The longest chain of float additions any one element goes through in kVariants[k] (tree
// rounds, grid-stride steps, atomics into the total): the rounding error grows with it.
inline uint64_t addition_depth(int k, uint64_t n, uint64_t grid, uint64_t block) {
  const uint64_t tree = log2_ceil(block);                 // rounds of a block tree
  const uint64_t per_thread = ceil_div(n, grid * block);  // grid-stride steps of one thread
  const uint64_t warp_trees = 2 * 5;                      // cg::reduce in a warp, then over warps
  switch (k) {
    case 0: case 1: case 4: case 5:  // the seeds' trees, interleaved, sequential
      return tree + grid;            // atomics add block sums in sequence
    case 6: case 7:  // first-add, last-warp
      return 1 + tree + grid;
    case 2: case 8:  // seed-grid-sync, grid-stride
      return per_thread + tree + grid;
    case 3:  // seed-tile32
      return per_thread + tree + ceil_div(grid, 32) + 5;
    case 9:  // tile-reduce
      return per_thread + warp_trees + grid;
    case 10:  // vector-loads
      return ceil_div(per_thread, 4) + 3 + warp_trees + grid;
    case 11:  // tuned
      // Accumulator chain and tail, float4 halves, the accumulators, the block, then the last
      // block's loop over the partial sums and its block sum.
      return ceil_div(per_thread, 4) + 1 + 2 + kTunedAccumulators + warp_trees +
             ceil_div(grid, block) + warp_trees;
  }
  return n;
}

// cub::DeviceReduce::Sum's depth, assuming its first pass runs at least one 128-thread block per
// SM (it runs several), each thread adding its items in sequence, then trees.
inline uint64_t cub_addition_depth(uint64_t n, int sm_count) {
  return ceil_div(n, uint64_t(sm_count > 1 ? sm_count : 1) * 128) + 256;
}

// |float sum - exact sum| <= gamma(depth) * sum |x|, gamma(d) = d u / (1 - d u), u = 2^-24: the
// classic worst-case bound for recursive summation. Infinite when d u >= 1.
inline double error_bound(uint64_t depth, double abs_sum) {
  const double du = double(depth) * std::ldexp(1.0, -24);
  if (du >= 1) return std::numeric_limits<double>::infinity();
  return du / (1 - du) * abs_sum;
}

// A sum compared with the exact one.
struct SumCheck {
  double got = 0, reference = 0;
  double error = 0, bound = 0;  // absolute
  uint64_t depth = 0;
  bool exact = false;  // the bound is 0: inputs chosen so every addition is exact
  bool pass = false;
  double relative_error() const { return reference != 0 ? error / std::fabs(reference) : error; }
  double relative_bound() const { return reference != 0 ? bound / std::fabs(reference) : bound; }
};
// Within the bound of `depth` chained additions over values whose magnitudes add to abs_sum.
inline SumCheck check_sum(double got, double exact_sum, double abs_sum, uint64_t depth) {
  SumCheck c;
  c.got = got;
  c.reference = exact_sum;
  c.depth = depth;
  c.error = std::fabs(got - exact_sum);
  c.bound = error_bound(depth, abs_sum);
  c.pass = std::isfinite(got) && c.error <= c.bound;
  return c;
}
// Equal, for inputs whose every partial sum a float holds exactly (integer_input).
inline SumCheck check_exact(double got, double exact_sum) {
  SumCheck c;
  c.got = got;
  c.reference = exact_sum;
  c.exact = true;
  c.error = std::fabs(got - exact_sum);
  c.pass = got == exact_sum;
  return c;
}

// [SECTION] Inputs

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// n uniform floats in [0, 1), reproducible from the seed: 24 random bits each, so every one is
// exact in a float.
inline std::vector<float> random_input(size_t n, uint64_t seed) {
  std::vector<float> v(n);
  uint64_t state = seed * 0x2545F4914F6CDD1Dull + 1;
  for (float& x : v) x = float(splitmix64(state) >> 40) * 0x1p-24f;
  return v;
}

// n integers 0..15 as floats: if n <= kExactMaxN every partial sum is an integer below 2^24, so
// any order of additions gives the exact sum and a single lost or doubled element shows.
inline std::vector<float> integer_input(size_t n, uint64_t seed) {
  std::vector<float> v(n);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 7;
  for (float& x : v) x = float(splitmix64(state) >> 60);
  return v;
}
inline constexpr uint64_t kExactMaxN = (uint64_t(1) << 24) / 15;

}  // namespace reduction
