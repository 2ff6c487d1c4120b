// Split barriers: barrier_arrive says "my part is ready", barrier_wait says "now I need
// everyone's". Work placed between the two overlaps the wait for the slower threads. An ordinary
// CUDA program (see the end).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Work of uneven length: the number of Collatz steps from x down to 1. Every step is counted
// in `progress` (a store lesson.json shows), so the view shows how long each thread works.
__device__ int collatz(int x, int* progress) {
  int steps = 0;
  while (x != 1) {
    x = x % 2 ? 3 * x + 1 : x / 2;
    progress[0] = ++steps;
  }
  return steps;
}

// Each thread computes and publishes its part, arrives, does work of its own, waits, and only
// then reads its neighbour's part.
__global__ void block_split(const int* in, int* out, int* produced, int* local) {
  __shared__ int published[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  published[r] = collatz(in[i], produced + i);  // my part: quick for some threads, slow for others
  cg::thread_block::arrival_token token = block.barrier_arrive();  // my part is published
  collatz(r + 2, local + i);              // meanwhile, work that needs nobody else
  block.barrier_wait(std::move(token));  // now every part is published
  out[i] = published[(r + 1) % n];
}

// The same pattern across a cluster (sm_90 and newer): each block publishes into its own shared
// memory; after the wait it reads the next block's copy through distributed shared memory.
__global__ void cluster_split(const int* in, int* out, int* produced, int* local) {
  __shared__ int published[kMaxBlock];
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), i = grid.thread_rank();
  published[r] = collatz(in[i], produced + i);
  auto token = cluster.barrier_arrive();   // my block's part is published
  collatz(r + 2, local + i);                // meanwhile, work that needs no other block
  cluster.barrier_wait(std::move(token));  // every block of the cluster has published
  const int next = (cluster.block_rank() + 1) % cluster.num_blocks();
  const int* neighbour = cluster.map_shared_rank(published, next);
  out[i] = neighbour[r];
  cluster.sync();  // my shared memory must outlive my neighbour's reads
}
constexpr int kSyncInsideLine = __LINE__ + 9;  // sync_inside_split's block.sync()
// Hazard (emulator only): a collective on the block while its split barrier is open.
__global__ void sync_inside_split(const int* in, int* out, int* produced, int* local) {
  __shared__ int published[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  published[r] = collatz(in[i], produced + i);
  auto token = block.barrier_arrive();
  block.sync();  // not allowed: this block's split barrier is still open
  collatz(r + 2, local + i);
  block.barrier_wait(std::move(token));
  out[i] = published[(r + 1) % n];
}

// Hazard (emulator only): reusing a slot right after barrier_wait, as if every thread had
// already passed its own wait. The last thread is slow on purpose: its local work lasts until
// every other thread has finished the whole round.
__global__ void reuse_after_wait(const int* in, int* out, int* /*produced*/, int* local) {
  __shared__ int published[kMaxBlock];
  __shared__ int finished;
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  if (r == 0) finished = 0;
  published[r] = in[i];
  block.sync();  // finished is 0 for everyone
  auto token = block.barrier_arrive();
  if (r == n - 1)
    while (atomicAdd(&finished, 0) < n - 1) local[i] = local[i] + 1;  // slow
  block.barrier_wait(std::move(token));
  out[i] = published[(r + 1) % n];  // the last thread reads slot 0...
  published[r] = -in[i];                    // ...which thread 0 may already have reused
  atomicAdd(&finished, 1);
}


// ---- The host side: `nvcc -arch=sm_90 split_barriers.cu && ./a.out` runs the lesson's default
// launch; coopviz passes --backend, --grid, --block and the parameters (lessons/README.md). The
// kernels above keep the line numbers lesson.md cites.

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

enum Variant { kBlock = 0, kCluster = 1, kCollectiveInside = 2, kReuseAfterWait = 3 };

struct Options {
  LessonLaunch launch;
  long variant = kBlock, cluster = 2, data = 1;
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 4;
  o.launch.block[0] = 64;
  const std::string error =
      parse_lesson_arguments(argc, argv, o.launch,
                             {{"variant", kBlock, kReuseAfterWait, &o.variant},
                              {"cluster", 2, 8, &o.cluster},
                              {"data", 0, 1 << 30, &o.data}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (grid[1] != 1 || grid[2] != 1 || grid[0] > 4096)
    return "split-barriers uses a 1D grid of at most 4096 blocks: got " + dims_text(grid);
  const unsigned threads = block[0] * block[1] * block[2];
  if (threads > unsigned(kMaxBlock))
    return "split-barriers publishes one int per thread in a 1024-int shared array: block " +
           dims_text(block) + " has " + std::to_string(threads) + " threads";
  if (o.variant == kCluster && grid[0] % o.cluster != 0)
    return "the cluster variant groups the grid's blocks in clusters of " +
           std::to_string(o.cluster) + ": grid " + dims_text(grid) + " is not a multiple of " +
           std::to_string(o.cluster);
  return "";
}

int collatz_steps(int x) {
  int steps = 0;
  for (; x != 1; ++steps) x = x % 2 ? 3 * x + 1 : x / 2;
  return steps;
}

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// What one launch left in the kernels' arrays, and its error.
struct Launched {
  cudaError_t error = cudaSuccess;
  std::vector<int> out, produced, local;
};

// The kernels' four arrays (in uploaded, the rest zero), one launch of the variant's kernel, and
// what it left.
Launched launch_once(const Options& o, const std::vector<int>& input) {
  const size_t bytes = input.size() * sizeof(int);
  int *in, *out, *produced, *local;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMalloc(&produced, bytes);
  cudaMalloc(&local, bytes);
  cudaMemcpy(in, input.data(), bytes, cudaMemcpyHostToDevice);
  for (int* a : {out, produced, local}) cudaMemset(a, 0, bytes);
  const dim3 grid(o.launch.grid[0]), block(o.launch.block[0], o.launch.block[1], o.launch.block[2]);
  Launched l;
  if (o.variant == kCluster) {
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = unsigned(o.cluster);
    attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.attrs = &attribute;
    config.numAttrs = 1;
    l.error = cudaLaunchKernelEx(&config, cluster_split, (const int*)in, out, produced, local);
  } else if (o.variant == kCollectiveInside) {
    sync_inside_split<<<grid, block>>>(in, out, produced, local);
  } else if (o.variant == kReuseAfterWait) {
    reuse_after_wait<<<grid, block>>>(in, out, produced, local);
  } else {
    block_split<<<grid, block>>>(in, out, produced, local);
  }
  if (l.error == cudaSuccess) l.error = cudaGetLastError();
  if (l.error == cudaSuccess) l.error = cudaDeviceSynchronize();
  for (auto [from, to] : {std::pair{out, &l.out}, {produced, &l.produced}, {local, &l.local}}) {
    to->resize(input.size());
    if (l.error == cudaSuccess) cudaMemcpy(to->data(), from, bytes, cudaMemcpyDeviceToHost);
  }
  for (int* a : {in, out, produced, local}) cudaFree(a);
  return l;
}

// [SECTION] Variants 0 and 1: a split barrier used correctly, for a block or a cluster.

int run_correct(const Options& o, const std::vector<int>& in) {
  const bool cluster = o.variant == kCluster;
  if (cluster && o.launch.gpu) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess && prop.major < 9)
      return lesson_error("the cluster variant needs thread block clusters, compute capability "
                          "9.0 or newer; " + std::string(prop.name) + " is " +
                          std::to_string(prop.major) + "." + std::to_string(prop.minor) +
                          " (run it with --backend emu, or use variant 0)");
  }
  const Launched l = launch_once(o, in);
  const char* kernel = cluster ? "cluster_split" : "block_split";
  if (l.error != cudaSuccess)
    return lesson_error(std::string(kernel) + ": " + error_words(l.error));
  const size_t threads = in.size(), blocks = o.launch.grid[0], n = threads / blocks;
  const size_t per_cluster = cluster ? size_t(o.cluster) : 1;
  // Block variant: the next thread's part. Cluster variant: the same thread of the next block.
  auto neighbour = [&](size_t i) {
    if (!cluster) return i / n * n + (i % n + 1) % n;
    const size_t block = i / n, first = block / per_cluster * per_cluster;
    return (first + (block - first + 1) % per_cluster) * n + i % n;
  };
  auto want = [&](size_t i) { return collatz_steps(in[neighbour(i)]); };
  bool failed = false;
  lesson_check_all(
      cluster ? "after the cluster wait, each thread read the next block's published value"
              : "after the wait, each thread read its neighbour's published value",
      threads, [&](size_t i) { return l.out[i] == want(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " read " + std::to_string(l.out[i]) +
               ", expected " + std::to_string(want(i));
      },
      failed);
  auto both_counts = [&](size_t i) {
    return l.produced[i] == collatz_steps(in[i]) && l.local[i] == collatz_steps(int(i % n) + 2);
  };
  lesson_check_all(
      "each thread's part (Collatz steps of its value) and its local work (of rank + 2)", threads,
      both_counts,
      [&](size_t i) {
        return "thread " + std::to_string(i) + " counted " + std::to_string(l.produced[i]) +
               " and " + std::to_string(l.local[i]) + ", expected " +
               std::to_string(collatz_steps(in[i])) + " and " +
               std::to_string(collatz_steps(int(i % n) + 2));
      },
      failed);
  // From the trace: no wait was left before the group's last arrival (its split barrier's phase
  // and, in a cluster, the closing cluster.sync()), and every thread's own events hold its local
  // work's stores between its arrive and its wait.
  printf("[trace] no thread left barrier_wait before the last thread of its %s called "
         "barrier_arrive: expected %zu barrier phases kept in %s\n",
         cluster ? "cluster" : "block", cluster ? 2 * blocks / per_cluster : blocks, kernel);
  printf("[trace] each thread's local work lies between its barrier_arrive and its barrier_wait: "
         "expected %zu threads with barrier_arrive then store then barrier_wait in %s\n",
         threads, kernel);
  const auto [lo, hi] = std::minmax_element(l.produced.begin(), l.produced.end());
  lesson_result("work before arriving",
                std::to_string(*lo) + " to " + std::to_string(*hi) + " Collatz steps");
  // Threads whose own work outlasted everyone's arrival found the barrier already open.
  printf("[count] barrier_wait calls that found the barrier already open: barrier_wait open in "
         "%s\n",
         kernel);
  if (cluster) lesson_result("blocks per cluster", std::to_string(per_cluster));
  return failed ? 1 : 0;
}

// [SECTION] Variants 2 and 3: the guide's two hazards, on the emulator only.

int run_collective_inside(const Options& o, const std::vector<int>& in) {
  const Launched l = launch_once(o, in);
  bool failed = false;
  lesson_check(l.error != cudaSuccess, "the emulator stopped the launch", "an error",
               l.error == cudaSuccess ? "the launch completed" : error_words(l.error), failed);
  // What the trace shows of the report: the thread stopped on the sync() line.
  printf("[trace] the emulator stopped the sync() at line %d between barrier_arrive and "
         "barrier_wait: expected 1 fault at line %d stuck, 1 fault in sync_inside_split\n",
         kSyncInsideLine, kSyncInsideLine);
  return failed ? 1 : 0;
}

int run_reuse_after_wait(const Options& o, const std::vector<int>& in) {
  const Launched l = launch_once(o, in);
  if (l.error != cudaSuccess) return lesson_error("reuse_after_wait: " + error_words(l.error));
  const size_t threads = in.size(), blocks = o.launch.grid[0], n = threads / blocks;
  bool failed = false;
  // The last thread spins until the n - 1 others have counted themselves finished, each after its
  // barrier_wait returned: a launch that ended means that held in every block.
  lesson_check_all(
      "barrier_wait returned for all " + std::to_string(n - 1) +
          " other threads before the last thread even called it",
      blocks, [&](size_t) { return l.error == cudaSuccess; },
      [&](size_t blk) { return "block " + std::to_string(blk) + ": the launch failed"; }, failed);
  // What that costs: the last thread reads slot 0 after thread 0 refilled it for the next round.
  lesson_check_all(
      "so the last thread of each block read the next round's value (-x) from slot 0", blocks,
      [&](size_t blk) { return l.out[blk * n + n - 1] == -in[blk * n]; },
      [&](size_t blk) {
        return "block " + std::to_string(blk) + ": read " + std::to_string(l.out[blk * n + n - 1]) +
               ", the overwritten value is " + std::to_string(-in[blk * n]);
      },
      failed);
  lesson_result("slow thread of block 0 read",
                std::to_string(l.out[n - 1]) + " (published: " + std::to_string(in[0]) + ")");
  lesson_result("spin-loop rounds of the slow thread of block 0", std::to_string(l.local[n - 1]));
  return failed ? 1 : 0;
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  const unsigned* b = o.launch.block;
  std::vector<int> in(size_t(o.launch.grid[0]) * b[0] * b[1] * b[2]);
  std::mt19937 rng{uint32_t(o.data)};
  std::uniform_int_distribution<int> pick(1, 999);
  for (int& x : in) x = pick(rng);
  if ((o.variant == kCollectiveInside || o.variant == kReuseAfterWait) && o.launch.gpu)
    return lesson_error(std::string(o.variant == kCollectiveInside
                                        ? "variant 2 (a sync() between arrive and wait) misuses "
                                          "the split barrier"
                                        : "variant 3 (reusing a slot right after the wait) reads "
                                          "a value that was already overwritten") +
                        " on purpose; it runs only on the emulator, which reports the hazard "
                        "instead of hanging or corrupting data");
  if (o.variant == kCollectiveInside) return run_collective_inside(o, in);
  if (o.variant == kReuseAfterWait) return run_reuse_after_wait(o, in);
  return run_correct(o, in);
}
