// The clusters lesson as an ordinary CUDA program: its two kernels (a ring through
// distributed shared memory, and a histogram whose bins are spread over a cluster's blocks), the
// lesson's cluster launch and its checks against a CPU reference. Run plainly (`nvcc -arch=sm_90
// clusters.cu && ./a.out`, on a GPU of compute capability 9.0 or later) it runs the lesson's
// defaults; coopviz passes the launch and every parameter: --backend=emulator|gpu --grid=X
// --block=X --cluster=X --part=N --bins_per_block=N --data=N
// Each check prints "[pass] NAME: expected E, got G" ("[FAIL]" when it fails), each result
// "[result] NAME = VALUE"; the exit status is 1 when a check failed, 2 for arguments it cannot run
// (one line "error: ..." on stderr). The loads through `next_slice`, from the next block's slice,
// are the ones the lesson's steps show (lesson.json's shown_loads).
#include <cooperative_groups.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;
constexpr int kMaxBinsPerBlock = 1024;

// A ring: every block fills its slice of shared memory, then each thread reads the value at its
// own position in the next block's slice (ranks within the cluster, the last wrapping to 0).
__global__ void ring_exchange(const int* input, int* from_next, int* ranks) {
  __shared__ int slice[kMaxBlock];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  const unsigned i = blockIdx.x * blockDim.x + t;
  slice[t] = input[i];
  cluster.sync();  // every block of the cluster has filled its slice
  const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  int* next_slice = cluster.map_shared_rank(slice, next);
  from_next[i] = next_slice[t];
  ranks[i] = cluster.block_rank();
  cluster.sync();  // stay until the previous block has read our slice: exiting would free it
}

// A histogram whose bins are spread over the cluster: block r keeps bins r * per_block to
// (r + 1) * per_block - 1 in its shared memory. Every thread adds 1 to its value's bin in
// whichever block keeps it; then each block adds the bins it keeps to the global result.
__global__ void cluster_histogram(const int* values, int* bins, int per_block) {
  __shared__ int kept[kMaxBinsPerBlock];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  const int t = int(block.thread_rank()), threads = int(block.size());
  for (int b = t; b < per_block; b += threads) kept[b] = 0;
  cluster.sync();  // every bin of the cluster is zero before anyone adds to it
  const int v = values[blockIdx.x * blockDim.x + t];
  int* keeper = cluster.map_shared_rank(kept, v / per_block);
  atomicAdd(&keeper[v % per_block], 1);
  cluster.sync();  // every add into this block's bins has landed
  const int first = int(cluster.block_rank()) * per_block;
  for (int b = t; b < per_block; b += threads) atomicAdd(&bins[first + b], kept[b]);
}

// [SECTION] Arguments

struct Settings {
  unsigned grid = 8, block = 128, cluster = 4;
  int part = 0, bins_per_block = 64, data = 1;
};

// One whole number in [low, high] after `prefix` ("--part="), into `value`: "" when `arg` is not
// that argument or holds one, else what is wrong.
std::string number(const char* arg, const char* prefix, long low, long high, long* value,
                   bool* matched) {
  const size_t n = std::strlen(prefix);
  if (std::strncmp(arg, prefix, n) != 0) return "";
  *matched = true;
  char extra = 0;
  long v = 0;
  if (std::sscanf(arg + n, "%ld%c", &v, &extra) != 1)
    return std::string(prefix, n - 1) + " takes a whole number: got " + (arg + n);
  if (v < low || v > high)
    return std::string(prefix + 2, n - 3) + " must be from " + std::to_string(low) + " to " +
           std::to_string(high) + ": got " + std::to_string(v);
  *value = v;
  return "";
}

// What is wrong with the arguments and the launch they ask for, or "" when it can run. Grids,
// blocks and clusters are one-dimensional: "X,Y" with Y above 1 is refused.
std::string parse(int argc, char** argv, Settings& s) {
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    if (!std::strcmp(arg, "--backend=emulator") || !std::strcmp(arg, "--backend=gpu")) continue;
    bool matched = false;
    long v = 0;
    for (auto [prefix, into] : {std::pair{"--grid=", &s.grid}, std::pair{"--block=", &s.block},
                                std::pair{"--cluster=", &s.cluster}}) {
      const std::string wrong = number(arg, prefix, 1, 1l << 31, &v, &matched);
      if (!wrong.empty())
        return wrong + " (clusters uses 1D blocks, grids and clusters: one number each)";
      if (matched) {
        *into = unsigned(v);
        break;
      }
    }
    for (auto [prefix, low, high, into] :
         {std::tuple{"--part=", 0l, 2l, &s.part},
          std::tuple{"--bins_per_block=", 1l, 1024l, &s.bins_per_block},
          std::tuple{"--data=", 0l, 1l << 30, &s.data}}) {
      if (matched) break;
      if (const std::string wrong = number(arg, prefix, low, high, &v, &matched); !wrong.empty())
        return wrong;
      if (matched) *into = int(v);
    }
    if (!matched)
      return std::string("unknown argument '") + arg +
             "' (this program takes --backend=emulator|gpu, --grid, --block, --cluster, --part, "
             "--bins_per_block and --data)";
  }
  if (s.block > 1024)
    return "ring_exchange keeps at most 1024 values per block: got a block of " +
           std::to_string(s.block);
  if (s.grid % s.cluster != 0)
    return "grid " + std::to_string(s.grid) + " is not a multiple of the cluster " +
           std::to_string(s.cluster);
  return "";
}

// [SECTION] Checks

int failed = 0;

void check(const std::string& name, const std::string& expected, const std::string& got,
           bool pass) {
  std::printf("[%s] %s: expected %s, got %s\n", pass ? "pass" : "FAIL", name.c_str(),
              expected.c_str(), got.c_str());
  failed += !pass;
}

// "n of n" over items 0 .. n-1; a failure names the first bad item.
template <class Ok, class Describe>
void check_all(const std::string& name, size_t n, Ok ok, Describe describe) {
  size_t good = 0, first_bad = n;
  for (size_t i = 0; i < n; ++i) {
    if (ok(i))
      ++good;
    else if (first_bad == n)
      first_bad = i;
  }
  std::string got = std::to_string(good) + " of " + std::to_string(n);
  if (first_bad < n) got += " (first difference: " + describe(first_bad) + ")";
  check(name, std::to_string(n) + " of " + std::to_string(n), got, good == n);
}

void result(const std::string& name, const std::string& value) {
  std::printf("[result] %s = %s\n", name.c_str(), value.c_str());
}

// [SECTION] The two launches

// A cluster launch's configuration: the cluster size is chosen at run time, so it is a launch
// attribute (a compile-time size would be __cluster_dims__). `attribute` must outlive it.
cudaLaunchConfig_t cluster_launch(const Settings& s, cudaLaunchAttribute* attribute) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(s.grid);
  config.blockDim = dim3(s.block);
  attribute->id = cudaLaunchAttributeClusterDimension;
  attribute->val.clusterDim.x = s.cluster;
  attribute->val.clusterDim.y = 1;
  attribute->val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  return config;
}

// A launch that failed is a launch this program cannot run.
void finished(const char* kernel, cudaError_t e) {
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "error: %s: %s\n", kernel, cudaGetErrorString(e));
  std::exit(2);
}

std::string of(size_t good, size_t n) {
  return std::to_string(good) + " of " + std::to_string(n);
}

void run_ring(const Settings& s) {
  const unsigned block = s.block, size = s.cluster;
  const size_t n = size_t(s.grid) * block;
  std::vector<int> host_input(n), host_from_next(n, -1), host_ranks(n, -1);
  for (size_t i = 0; i < n; ++i) host_input[i] = int(i);  // each value names its thread
  int *input, *from_next, *ranks;
  cudaMalloc(&input, n * sizeof(int));
  cudaMalloc(&from_next, n * sizeof(int));
  cudaMalloc(&ranks, n * sizeof(int));
  cudaMemcpy(input, host_input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(from_next, host_from_next.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(ranks, host_ranks.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_launch(s, &attribute);
  finished("ring_exchange", cudaLaunchKernelEx(&config, ring_exchange, input, from_next, ranks));
  cudaMemcpy(host_from_next.data(), from_next, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(host_ranks.data(), ranks, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(input);
  cudaFree(from_next);
  cudaFree(ranks);

  size_t right_value = 0, right_rank = 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned b = unsigned(i / block), t = unsigned(i % block);
    const unsigned rank = b % size, next = b - rank + (rank + 1) % size;
    right_value += host_from_next[i] == host_input[size_t(next) * block + t];
    right_rank += host_ranks[i] == int(rank);
  }
  check("ring: block_rank() is the block's place in its cluster", of(n, n), of(right_rank, n),
        right_rank == n);
  check("ring: every thread read the next block's shared memory through map_shared_rank", of(n, n),
        of(right_value, n), right_value == n);
  result("clusters", std::to_string(s.grid / size) + " of " + std::to_string(size) + " blocks");
  result("ring: thread 0 of block 0 read", std::to_string(host_from_next[0]) +
                                               " (thread 0 of block " +
                                               std::to_string(size > 1 ? 1 : 0) + ")");
}

void run_histogram(const Settings& s) {
  const int per_block = s.bins_per_block;
  const unsigned block = s.block, size = s.cluster;
  const size_t n = size_t(s.grid) * block;
  const int bin_count = per_block * int(size);
  std::vector<int> host_values(n), got(size_t(bin_count), 0);
  std::mt19937 rng(uint32_t(s.data));
  std::uniform_int_distribution<int> pick(0, bin_count - 1);
  for (int& v : host_values) v = pick(rng);
  int *values, *bins;
  cudaMalloc(&values, n * sizeof(int));
  cudaMalloc(&bins, got.size() * sizeof(int));
  cudaMemcpy(values, host_values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(bins, got.data(), got.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_launch(s, &attribute);
  finished("cluster_histogram",
           cudaLaunchKernelEx(&config, cluster_histogram, values, bins, per_block));
  cudaMemcpy(got.data(), bins, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(values);
  cudaFree(bins);

  std::vector<int> expect(size_t(bin_count), 0);
  size_t remote = 0;
  for (size_t i = 0; i < n; ++i) {
    ++expect[size_t(host_values[i])];
    remote += unsigned(host_values[i] / per_block) != (i / block) % size;
  }
  size_t right = 0;
  for (int b = 0; b < bin_count; ++b) right += got[size_t(b)] == expect[size_t(b)];
  check("histogram: every bin equals the CPU's count", of(size_t(bin_count), size_t(bin_count)),
        of(right, size_t(bin_count)), right == size_t(bin_count));
  // The atomics a launch made are in the trace: coopviz counts them there.
  std::printf(
      "[trace] histogram: one shared-memory add per thread, one global add per bin kept: "
      "expected %zu atomic in cluster_histogram\n",
      n + size_t(s.grid) * size_t(per_block));
  result("histogram: bins", std::to_string(bin_count) + " (" + std::to_string(per_block) +
                                " kept by each of " + std::to_string(size) + " blocks)");
  result("histogram: adds into another block's shared memory", of(remote, n));
}

int main(int argc, char** argv) {
  Settings s;
  if (const std::string wrong = parse(argc, argv, s); !wrong.empty()) {
    std::fprintf(stderr, "error: %s\n", wrong.c_str());
    return 2;
  }
  if (s.part == 0 || s.part == 1) run_ring(s);
  if (s.part == 0 || s.part == 2) run_histogram(s);
  return failed ? 1 : 0;
}
