// Synchronization and its hazards: what a barrier promises, how a library function can hide
// one, and why the group should be a parameter. An ordinary CUDA program (see the end).
#include <cooperative_groups.h>


namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;
constexpr int kSpellingLines[3] = {__LINE__ + 9, __LINE__ + 11, __LINE__ + 13};  // its barriers
// One barrier, three spellings. Each thread fills its slot, waits, then reads its neighbour's:
// without the barrier the neighbour's slot could still hold an old value.
__global__ void three_spellings(const int* in, int* out) {
  __shared__ int slot[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads();
  slot[r] = in[grid.thread_rank()];
  block.sync();  // the group's own barrier
  const int right = slot[(r + 1) % n];
  __syncthreads();  // the same barrier, spelled the classic way
  slot[r] = right;
  cg::sync(block);  // and once more, as the free function
  out[grid.thread_rank()] = slot[(r + 1) % n];
}
constexpr int kLibrarySyncLine = __LINE__ + 5;  // block_sum's first __syncthreads()
// A library sum written for whole blocks. It waits with __syncthreads(), so every thread of
// the block must call it, but nothing in its signature says so.
__device__ int block_sum(int* scratch, int value) {
  scratch[threadIdx.x] = value;
  __syncthreads();  // the whole block, whoever called
  int total = 0;
  for (int k = 0; k < int(blockDim.x); ++k) total += scratch[k];
  __syncthreads();  // nobody refills scratch while others still read it
  return total;
}

// The same sum with the group as a parameter: the caller says who takes part.
__device__ int group_sum(const cg::thread_group& g, int* scratch, int value) {
  const int rank = g.thread_rank(), n = g.size();
  scratch[rank] = value;
  g.sync();  // only the members of g
  int total = 0;
  for (int k = 0; k < n; ++k) total += scratch[k];
  g.sync();
  return total;
}

// Safe: the whole block sums, then the lower half sums its warps. The warp tiles are made by
// every thread before the branch; whole tiles take it, and each one waits only for itself.
__global__ void half_block_fixed(const int* in, int* block_sums, int* warp_sums) {
  __shared__ int scratch[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_group warp = cg::tiled_partition(block, 32);
  const int r = block.thread_rank(), value = in[grid.thread_rank()];
  const int total = group_sum(block, scratch, value);
  if (r == 0) block_sums[grid.block_rank()] = total;
  if (r < int(block.num_threads()) / 2) {
    const int warp_total = group_sum(warp, scratch + r / 32 * 32, value);
    warp_sums[grid.thread_rank()] = warp_total;
  }
}

// Hazard (emulator only): the lower half calls the block-wide library. Its __syncthreads()
// waits for the upper half, which has already left the kernel.
__global__ void half_block_deadlock(const int* in, int* block_sums, int* /*warp_sums*/) {
  __shared__ int scratch[kMaxBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < blockDim.x / 2) {
    const int total = block_sum(scratch, in[i]);  // deadlock: half the block never arrives
    if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
  }
}
constexpr int kLatePartitionLine = __LINE__ + 9;  // partition_in_branch's tiled_partition
// Hazard (emulator only): the partition is made inside the branch. Partitioning is collective:
// every thread of the parent must take part, and half of them never get here.
__global__ void partition_in_branch(const int* in, int* /*block_sums*/, int* warp_sums) {
  __shared__ int scratch[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank();
  if (r < int(block.num_threads()) / 2) {
    cg::thread_group late_warp = cg::tiled_partition(block, 32);  // too late: half are gone
    const int warp_total = group_sum(late_warp, scratch + r / 32 * 32, in[grid.thread_rank()]);
    warp_sums[grid.thread_rank()] = warp_total;  // nobody waited for the upper half
  }
}
constexpr int kWriteLine = __LINE__ + 11, kReadLine = __LINE__ + 12;  // missing_barrier's race
// Hazard: three_spellings without its first barrier. A thread reads its neighbour's slot right
// after writing its own, so whether the neighbour has written yet is up to the schedule: a data
// race. It never hangs, so it runs on a GPU too; only the emulator's detector sees the race.
__global__ void missing_barrier(const int* in, int* out) {
  __shared__ int slot[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int r = block.thread_rank(), n = block.num_threads(), i = grid.thread_rank();
  slot[r] = -1;  // "not written yet": every slot holds it once the block passes the barrier
  block.sync();
  slot[r] = in[i];                          // the write
  const int neighbour = slot[(r + 1) % n];  // the read: no barrier since the neighbour's write
  out[i] = neighbour;
}


// ---- The host side: `nvcc synchronization_hazards.cu && ./a.out` runs the lesson's default
// launch; coopviz passes --backend, --grid, --block and the parameters (lessons/README.md). The
// kernels above keep the line numbers lesson.md cites; the constants on the lines between them
// name the lines whose events coopviz counts in the trace ([trace] lines).

#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

enum Variant { kSafe = 0, kLibraryDeadlock = 1, kPartitionInBranch = 2, kMissingBarrier = 3 };

struct Options {
  LessonLaunch launch;
  long variant = kSafe, data = 1;
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 2;
  o.launch.block[0] = 64;
  const std::string error = parse_lesson_arguments(
      argc, argv, o.launch,
      {{"variant", kSafe, kMissingBarrier, &o.variant}, {"data", 0, 1 << 30, &o.data}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (block[1] != 1 || block[2] != 1)
    return "synchronization-hazards uses 1D blocks (block_sum indexes by threadIdx.x): got block " +
           dims_text(block);
  if (block[0] % 64 != 0 || block[0] > unsigned(kMaxBlock))
    return "synchronization-hazards splits each block into halves of whole warps: the block must "
           "be a multiple of 64 threads, at most 1024, got " +
           std::to_string(block[0]);
  if (grid[1] != 1 || grid[2] != 1 || grid[0] > 4096)
    return "synchronization-hazards uses a 1D grid of at most 4096 blocks: got " + dims_text(grid);
  return "";
}

// Per-thread random inputs, 0 to 99, from the `data` seed.
std::vector<int> make_inputs(size_t threads, long seed) {
  std::vector<int> in(threads);
  std::mt19937 rng{uint32_t(seed)};
  std::uniform_int_distribution<int> pick(0, 99);
  for (int& x : in) x = pick(rng);
  return in;
}

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

cudaError_t finish_launch() {
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? cudaDeviceSynchronize() : e;
}

void free_all(std::initializer_list<int*> buffers) {
  for (int* b : buffers) cudaFree(b);
}

// "thread 5 read 7, expected 9"
std::string read_text(size_t i, int got, const std::string& what, int want) {
  return "thread " + std::to_string(i) + " read " + std::to_string(got) + ", " + what + " " +
         std::to_string(want);
}

// [SECTION] The neighbour-reading kernels: three_spellings and missing_barrier

// `input` uploaded to in, one launch of three_spellings (or missing_barrier), and what each
// thread wrote to out.
cudaError_t launch_in_out(bool missing, const LessonLaunch& l, const std::vector<int>& input,
                          std::vector<int>& got) {
  const size_t bytes = input.size() * sizeof(int);
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, input.data(), bytes, cudaMemcpyHostToDevice);
  if (missing)
    missing_barrier<<<l.grid[0], l.block[0]>>>(in, out);
  else
    three_spellings<<<l.grid[0], l.block[0]>>>(in, out);
  cudaError_t e = finish_launch();
  got.resize(input.size());
  if (e == cudaSuccess) e = cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost);
  free_all({in, out});
  return e;
}

int run_three_spellings(const Options& o, const std::vector<int>& in, bool& failed) {
  const size_t threads = in.size(), n = o.launch.block[0], blocks = o.launch.grid[0];
  std::vector<int> got;
  if (const cudaError_t e = launch_in_out(false, o.launch, in, got); e != cudaSuccess)
    return lesson_error("three_spellings: " + error_words(e));
  auto want = [&](size_t i) { return in[i / n * n + (i % n + 2) % n]; };
  lesson_check_all(
      "each thread read the value two places to its right (both barriers held)", threads,
      [&](size_t i) { return got[i] == want(i); },
      [&](size_t i) { return read_text(i, got[i], "expected", want(i)); }, failed);
  // The three spellings are one barrier: phases 1, 2, 3 of the block, on their three lines; and
  // no thread left any of them before the last thread of its block arrived.
  const std::string each = std::to_string(threads) + " barrier of block " + std::to_string(n);
  printf("[trace] sync(), __syncthreads() and cg::sync() are phases 1, 2, 3 of the same block "
         "barrier: expected %s phase 1 at line %d, %s phase 2 at line %d, %s phase 3 at line %d, "
         "%zu barrier in three_spellings\n",
         each.c_str(), kSpellingLines[0], each.c_str(), kSpellingLines[1], each.c_str(),
         kSpellingLines[2], 3 * threads);
  printf("[trace] sync(), __syncthreads() and cg::sync(): no thread left before the last thread "
         "of its block arrived: expected %zu barrier phases kept in three_spellings\n",
         3 * blocks);
  return 0;
}

// The race is the point: on the emulator every load and store is recorded for its detector
// (lesson.json's records_memory for variant 3).
int run_missing_barrier(const Options& o, const std::vector<int>& in) {
  const size_t threads = in.size(), n = o.launch.block[0];
  std::vector<int> got;
  if (const cudaError_t e = launch_in_out(true, o.launch, in, got); e != cudaSuccess)
    return lesson_error("missing_barrier: " + error_words(e));
  // Inputs are 0 to 99, so -1 can only be the mark of a slot not yet written.
  auto right = [&](size_t i) { return in[i / n * n + (i % n + 1) % n]; };
  bool failed = false;
  lesson_check_all(
      "each thread read its right neighbour's slot: the neighbour's value, or -1 where the read "
      "came before the neighbour's write",
      threads, [&](size_t i) { return got[i] == right(i) || got[i] == -1; },
      [&](size_t i) { return read_text(i, got[i], "its neighbour's value is", right(i)); }, failed);
  const std::string write = "write line " + std::to_string(kWriteLine);
  const std::string read = "read line " + std::to_string(kReadLine);
  printf("[trace] the race detector pairs the %s with the %s, and finds no other race: expected "
         "1 race, 1 race of %s and %s in missing_barrier\n",
         write.c_str(), read.c_str(), write.c_str(), read.c_str());
  std::string early;
  size_t too_early = 0;
  for (size_t i = 0; i < threads; ++i) {
    if (got[i] != -1) continue;
    if (++too_early <= 8) early += (too_early > 1 ? ", " : " (threads ") + std::to_string(i);
  }
  if (too_early > 0) early += too_early > 8 ? ", ...)" : ")";
  lesson_result("threads that read -1 (before the neighbour wrote)",
                std::to_string(too_early) + " of " + std::to_string(threads) + early);
  return failed ? 1 : 0;
}

// [SECTION] The half-block kernels: in, block_sums, warp_sums

// The half-block kernels' buffers, `input` uploaded to in.
void half_block_buffers(const std::vector<int>& input, size_t blocks, int*& in, int*& block_sums,
                        int*& warp_sums) {
  cudaMalloc(&in, input.size() * sizeof(int));
  cudaMalloc(&block_sums, blocks * sizeof(int));
  cudaMalloc(&warp_sums, input.size() * sizeof(int));
  cudaMemcpy(in, input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice);
}

int run_fixed(const Options& o, const std::vector<int>& input, bool& failed) {
  const size_t threads = input.size(), n = o.launch.block[0], blocks = o.launch.grid[0];
  int *in, *block_sums, *warp_sums;
  half_block_buffers(input, blocks, in, block_sums, warp_sums);
  const std::vector<int> unwritten(threads, -1);  // "not written"
  cudaMemcpy(warp_sums, unwritten.data(), threads * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(block_sums, 0, blocks * sizeof(int));
  half_block_fixed<<<o.launch.grid[0], o.launch.block[0]>>>(in, block_sums, warp_sums);
  cudaError_t e = finish_launch();
  std::vector<int> block_got(blocks), warp_got(threads);
  if (e == cudaSuccess)
    e = cudaMemcpy(block_got.data(), block_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    e = cudaMemcpy(warp_got.data(), warp_sums, threads * sizeof(int), cudaMemcpyDeviceToHost);
  free_all({in, block_sums, warp_sums});
  if (e != cudaSuccess) return lesson_error("half_block_fixed: " + error_words(e));

  auto sum = [&](size_t first, size_t count) {
    int s = 0;
    for (size_t k = first; k < first + count; ++k) s += input[k];
    return s;
  };
  lesson_check_all(
      "group_sum(block, ...) called by every thread: each block's sum", blocks,
      [&](size_t b) { return block_got[b] == sum(b * n, n); },
      [&](size_t b) {
        return "block " + std::to_string(b) + " got " + std::to_string(block_got[b]) +
               ", expected " + std::to_string(sum(b * n, n));
      },
      failed);
  // Lower half: its warp's sum; upper half: untouched (-1), since it never called group_sum.
  auto want = [&](size_t i) { return i % n < n / 2 ? sum(i / 32 * 32, 32) : -1; };
  lesson_check_all(
      "group_sum(warp, ...) called by the lower half only: whole warps, no deadlock", threads,
      [&](size_t i) { return warp_got[i] == want(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " got " + std::to_string(warp_got[i]) +
               ", expected " + std::to_string(want(i));
      },
      failed);
  lesson_result("block 0 sum", std::to_string(block_got[0]));
  lesson_result("warp 0 sum", std::to_string(warp_got[0]));
  return 0;
}

// "threads 32-63"
std::string thread_range(size_t first, size_t last) {
  return "threads " + std::to_string(first) + (first == last ? "" : "-" + std::to_string(last));
}

// Variants 1 and 2 break CUDA's rules on purpose: the emulator stops the launch and says where
// (its report goes to stderr, and the stuck threads into the trace); a GPU never runs them.
int run_hazard(const Options& o, const std::vector<int>& input) {
  const bool deadlock = o.variant == kLibraryDeadlock;
  if (o.launch.gpu)
    return lesson_error(std::string(deadlock ? "variant 1 (library sum called by half a block) "
                                               "deadlocks"
                                             : "variant 2 (partition inside a branch) breaks "
                                               "CUDA's rules") +
                        " on purpose; it runs only on the emulator, which reports the hazard "
                        "instead of hanging or corrupting data");
  const size_t threads = input.size(), n = o.launch.block[0], blocks = o.launch.grid[0];
  int *in, *block_sums, *warp_sums;
  half_block_buffers(input, blocks, in, block_sums, warp_sums);
  if (deadlock)
    half_block_deadlock<<<o.launch.grid[0], o.launch.block[0]>>>(in, block_sums, warp_sums);
  else
    partition_in_branch<<<o.launch.grid[0], o.launch.block[0]>>>(in, block_sums, warp_sums);
  const cudaError_t e = finish_launch();
  free_all({in, block_sums, warp_sums});

  bool failed = false;
  lesson_check(e != cudaSuccess, "the emulator stopped the launch", "an error",
               e == cudaSuccess ? "the launch completed" : error_words(e), failed);
  const std::string upper = thread_range(n / 2, n - 1);
  const std::string half = std::to_string(threads / 2);
  // What the trace shows of the report: where the lower half of every block stopped.
  if (deadlock)
    printf("[trace] the emulator reported the deadlock at line %d with %s missing: expected %s "
           "barrier of block %zu at line %d stuck, %s barrier stuck in half_block_deadlock\n",
           kLibrarySyncLine, upper.c_str(), half.c_str(), n, kLibrarySyncLine, half.c_str());
  else
    printf("[trace] the emulator reported the partition at line %d skipped by %s: expected %s "
           "group_create of tile 32 at line %d, %s group_create at line %d in "
           "partition_in_branch\n",
           kLatePartitionLine, upper.c_str(), half.c_str(), kLatePartitionLine, half.c_str(),
           kLatePartitionLine);
  return failed ? 1 : 0;
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  const std::vector<int> in =
      make_inputs(size_t(o.launch.grid[0]) * o.launch.block[0], o.data);
  if (o.variant == kMissingBarrier) return run_missing_barrier(o, in);
  if (o.variant != kSafe) return run_hazard(o, in);
  bool failed = false;
  if (int code = run_three_spellings(o, in, failed)) return code;
  if (int code = run_fixed(o, in, failed)) return code;
  return failed ? 1 : 0;
}
