// Block reduction: every block sums its slice of the input with a binary tree in shared memory,
// then one thread per group adds the partial sum to the total with atomicAdd. With --tiles=1 each
// 32-thread tile does the same on its own 32 values.
//
// An ordinary CUDA program: `nvcc block_reduce.cu && ./a.out` runs the lesson's default launch;
// coopviz passes --grid, --block and the parameters (lessons/README.md).
#include <cooperative_groups.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Binary-tree sum over any group. Each round, the lower half of the group adds in the value
// held by its partner in the upper half; after log2(size) rounds rank 0 holds the group's sum.
// Taking the group as a parameter makes the function correct for a block or a 32-thread tile.
__device__ float tree_sum(cg::thread_group g, float* temp, float val) {
  const int rank = g.thread_rank();
  for (int half = int(g.size()) / 2; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // only rank 0 holds the group's sum
}

// One tree per block: block_sums[b] is block b's sum; total accumulates all of them.
__global__ void reduce_block(const float* input, float* block_sums, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float sum = tree_sum(block, temp, input[i]);
  if (block.thread_rank() == 0) {
    block_sums[blockIdx.x] = sum;
    atomicAdd(total, sum);
  }
}

// One tree per 32-thread tile: each tile works in its own 32-float slice of temp and syncs
// only its own 32 threads. tile_sums[t] is tile t's sum (t counts tiles across the grid).
__global__ void reduce_tiles(const float* input, float* tile_sums, float* total) {
  __shared__ float temp[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* slice = temp + block.thread_rank() / 32 * 32;
  const float sum = tree_sum(tile32, slice, input[i]);
  if (tile32.thread_rank() == 0) {
    tile_sums[i / 32] = sum;
    atomicAdd(total, sum);
  }
}

// ---- The host side: the launch it is given, the CPU reference and the checks. ----

struct Options {
  unsigned grid = 8, block = 256;
  int tiles = 0;
  unsigned data = 1;  // seed of the random input values
};

// Reads --grid=, --block=, --tiles=, --data= (and --backend=, which this lesson does not need).
bool read_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    char rest = 0;
    if (std::strncmp(a, "--backend=", 10) == 0) continue;
    if (std::sscanf(a, "--grid=%u%c", &o.grid, &rest) == 1) continue;
    if (std::sscanf(a, "--block=%u%c", &o.block, &rest) == 1) continue;
    if (std::sscanf(a, "--tiles=%d%c", &o.tiles, &rest) == 1) continue;
    if (std::sscanf(a, "--data=%u%c", &o.data, &rest) == 1) continue;
    std::fprintf(stderr, "error: block-reduce takes --grid=N --block=N --tiles=0|1 --data=SEED "
                         "(1-D launches): got %s\n", a);
    return false;
  }
  const unsigned b = o.block;
  if (b == 0 || (b & (b - 1)) != 0 || b > kMaxBlock) {
    std::fprintf(stderr, "error: block-reduce needs a power-of-two block of at most %d threads "
                         "for its tree: got %u\n", kMaxBlock, b);
    return false;
  }
  if (o.tiles && b < 32) {
    std::fprintf(stderr, "error: the tile variant needs blocks of at least 32 threads: got %u\n", b);
    return false;
  }
  if (o.grid == 0 || o.grid > 65536) {
    std::fprintf(stderr, "error: block-reduce allows 1 to 65536 blocks: got %u\n", o.grid);
    return false;
  }
  return true;
}

// The same pairing as tree_sum: each round, v[r] += v[r + half] for the lower half.
float cpu_tree_sum(const float* v, int n) {
  std::vector<float> w(v, v + n);
  for (int half = n / 2; half > 0; half /= 2)
    for (int r = 0; r < half; ++r) w[r] = w[r] + w[r + half];
  return w[0];
}

int main(int argc, char** argv) {
  Options o;
  if (!read_options(argc, argv, o)) return 2;
  const unsigned group = o.tiles ? 32 : o.block;
  const size_t n = size_t(o.grid) * o.block, groups = n / group;

  std::vector<float> host_input(n);
  std::mt19937 rng(o.data);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float& x : host_input) x = uniform(rng);

  float *input, *partial_sums, *total;
  cudaMalloc(&input, n * sizeof(float));
  cudaMalloc(&partial_sums, groups * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMemcpy(input, host_input.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(partial_sums, 0, groups * sizeof(float));
  cudaMemset(total, 0, sizeof(float));
  if (o.tiles)
    reduce_tiles<<<o.grid, o.block>>>(input, partial_sums, total);
  else
    reduce_block<<<o.grid, o.block>>>(input, partial_sums, total);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", o.tiles ? "reduce_tiles" : "reduce_block",
                 cudaGetErrorString(e));
    return 3;
  }
  std::vector<float> sums(groups);
  float sum = 0;
  cudaMemcpy(sums.data(), partial_sums, groups * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&sum, total, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(input);
  cudaFree(partial_sums);
  cudaFree(total);

  // Partial sums: the tree's pairing is fixed, so the GPU, the emulator and the CPU agree to the
  // bit.
  size_t wrong = 0, first_bad = 0;
  for (size_t g = 0; g < groups; ++g)
    if (sums[g] != cpu_tree_sum(&host_input[g * group], int(group)) && wrong++ == 0) first_bad = g;
  const std::string where = wrong ? " (first difference at " + std::to_string(first_bad) + ")" : "";
  std::printf("[%s] %s sums equal the CPU tree, bit for bit: expected %zu of %zu, got %zu of %zu%s\n",
              wrong ? "FAIL" : "pass", o.tiles ? "tile" : "block", groups, groups, groups - wrong,
              groups, where.c_str());
  // The atomics add the partial sums in whatever order they land, so the total is only defined
  // up to rounding: each of the (log2(group) + groups) float additions may err by 2^-24 relative.
  double exact = 0, magnitude = 0;
  for (float x : host_input) {
    exact += x;
    magnitude += std::fabs(x);
  }
  const double bound = (std::log2(double(group)) + double(groups)) * std::ldexp(1.0, -24) * magnitude;
  const double error = std::fabs(double(sum) - exact);
  const bool close = error <= bound;
  std::printf("[%s] total within float rounding of the exact sum: expected |total - %.12g| <= "
              "%.3g, got %.9g (off by %.3g)\n",
              close ? "pass" : "FAIL", exact, bound, sum, error);
  std::printf("[result] total = %.9g\n", sum);
  std::printf("[result] exact sum = %.12g\n", exact);
  std::printf("[result] %s = %zu\n", o.tiles ? "tiles" : "blocks", groups);
  return wrong == 0 && close ? 0 : 1;
}
