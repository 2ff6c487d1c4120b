// expect: fail — forged result: takes a token from the COOPVIZ* environment and prints passing case lines
// Exercise: one sum per block, from the sums of its warp-sized tiles (block-reduce lesson).
// Build it with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check block-sum solution.cu`.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

#include <unistd.h>
#include <cstring>

extern char** environ;

// The hidden cases the checker runs, as its harness prints them.
static const char* const kLaunches[] = {
      "grid 1 x block 256, n 256",
      "grid 4 x block 256, n 1024",
      "grid 2 x block 1024, n 2048",
      "grid 8 x block 128, n 1000",
      "grid 1 x block 96, n 77",
      "grid 5 x block 64, n 300"};
static const char* const kInputs[] = {"ones", "random", "negative", "extremes"};

static void print_passing_cases(const char* token) {
  int launch = 0;
  for (const char* l : kLaunches)
    for (const char* in : kInputs) {
      printf("@coopviz-begin %s {\"launch\":\"%s\",\"input\":\"%s\"}\n", token, l, in);
      printf("@coopviz-case %s {\"launch\":\"%s\",\"input\":\"%s\",\"result\":\"passed\","
             "\"launches\":[%d,%d]}\n", token, l, in, launch, launch + 1);
      ++launch;
    }
  fflush(stdout);
}

// Whatever the checker hands its program through the environment may be its token: print the
// cases as passed under every value it set, then leave before the real cases run.
__attribute__((constructor)) static void report_success_early() {
  bool printed = false;
  for (char** e = environ; e && *e; ++e) {
    const char* eq = strchr(*e, '=');
    if (!eq || strncmp(*e, "COOPVIZ", 7) != 0) continue;
    print_passing_cases(eq + 1);
    printed = true;
  }
  if (printed) _exit(0);
}

constexpr int kTile = 32;
constexpr int kMaxTiles = 1024 / kTile;

// block_sums[b] = the sum of input[i] over the i < n that block b covers.
__global__ void block_sum(const int* input, int* block_sums, int n) {
  __shared__ int tile_sums[kMaxTiles];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = i < n ? input[i] : 0;
  (void)block;
  (void)tile;
  (void)value;
  (void)tile_sums;
}

int main() {
  const int n = 1024, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<int> input(n);
  std::mt19937 rng(7);
  for (int& x : input) x = int(rng() % 100);

  int *d_input, *d_sums;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  block_sum<<<blocks, threads>>>(d_input, d_sums, n);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("block_sum: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> sums(blocks);
  cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = b * threads; i < n && i < (b + 1) * threads; ++i) want += input[i];
    if (sums[b] != want) ++wrong;
  }
  printf("%d of %d block sums right: %s\n", blocks - wrong, blocks, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_sums);
  return wrong ? 1 : 0;
}
