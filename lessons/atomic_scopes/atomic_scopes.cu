// Atomic scopes and memory order: cuda::std::atomic_ref against cuda::atomic_ref with a thread
// scope, the seed's sumReduction written with fetch_add, and the message-passing litmus test.
// An ordinary CUDA program (see the end).
#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;

// Three counters, three scopes. The block's counter lives in shared memory and only its own
// threads touch it, so block scope is enough. Every block touches grid_count: device scope.
// cuda::std::atomic_ref takes no scope and always means system scope, the widest: correct even
// if the host or another GPU watched the counter, and never cheaper than a narrower scope.
__global__ void scoped_counts(int* per_block, int* grid_count, int* system_count) {
  __shared__ int block_count;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) block_count = 0;
  block.sync();
  cuda::atomic_ref<int, cuda::thread_scope_block> in_block(block_count);
  cuda::atomic_ref<int, cuda::thread_scope_device> in_grid(*grid_count);
  cuda::std::atomic_ref<int> anywhere(*system_count);
  in_block.fetch_add(1, cuda::memory_order_relaxed);
  in_grid.fetch_add(1, cuda::memory_order_relaxed);
  anywhere.fetch_add(1);
  block.sync();
  if (block.thread_rank() == 0) per_block[blockIdx.x] = in_block.load(cuda::memory_order_relaxed);
}

// The seed's sumReduction: each thread adds its element to *result through a device-scope
// atomic_ref. atomic_ref binds to the object, so it is built from *result, not from result.
__global__ void sum_reduction(int n, const float* array, float* result) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid < n) {
    cuda::atomic_ref<float, cuda::thread_scope_device> result_ref(*result);
    result_ref.fetch_add(array[tid]);
  }
}

// Message passing. Threads `distance` apart pair up: the first of a pair writes, the second
// reads. The writer stores data, then raises the flag; the reader loads the flag, then the data,
// and records seen = 2 * flag + data. Everything is atomic; only the flag's memory order varies.
__device__ int pair_of(int id, int distance) {
  return id / (2 * distance) * distance + id % distance;
}

template <cuda::memory_order kRaise, cuda::memory_order kLook>
__device__ void pass_message(int* data, int* flag, int* seen, int distance) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = pair_of(id, distance);
  cuda::atomic_ref<int, cuda::thread_scope_device> d(data[k]);
  cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[k]);
  if (id / distance % 2 == 0) {
    d.store(1, cuda::memory_order_relaxed);
    f.store(1, kRaise);
  } else {
    const int f_seen = f.load(kLook);
    const int d_seen = d.load(cuda::memory_order_relaxed);
    seen[k] = 2 * f_seen + d_seen;
  }
}

// Relaxed: each location is atomic on its own, and nothing orders the two. A reader may see the
// flag raised and still read the old data.
__global__ void message_relaxed(int* data, int* flag, int* seen, int distance) {
  pass_message<cuda::memory_order_relaxed, cuda::memory_order_relaxed>(data, flag, seen, distance);
}

// Release/acquire: the release store publishes every write the writer made before it; an acquire
// load that reads that flag sees them all. Flag 1 with data 0 can never be observed.
__global__ void message_release_acquire(int* data, int* flag, int* seen, int distance) {
  pass_message<cuda::memory_order_release, cuda::memory_order_acquire>(data, flag, seen, distance);
}

// ---- The host side: `nvcc atomic_scopes.cu && ./a.out` runs the lesson's default launch;
// coopviz passes --backend, --grid, --block and the parameters (lessons/README.md). The kernels
// above keep the line numbers lesson.md cites.

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

enum Part { kAll = 0, kScopes = 1, kSumReduction = 2, kRelaxed = 3, kReleaseAcquire = 4 };

struct Options {
  LessonLaunch launch;
  long part = kAll, data = 1, distance = 1, runs = 32;
  unsigned threads() const { return launch.grid[0] * launch.block[0]; }
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 8;
  o.launch.block[0] = 256;
  const std::string error = parse_lesson_arguments(argc, argv, o.launch,
                                                   {{"part", kAll, kReleaseAcquire, &o.part},
                                                    {"data", 0, 1 << 30, &o.data},
                                                    {"distance", 1, 1 << 19, &o.distance},
                                                    {"runs", 1, 1024, &o.runs}});
  if (!error.empty()) return error;
  if ((o.distance & (o.distance - 1)) != 0)
    return "distance must be a power of two from 1 to 524288: got " + std::to_string(o.distance);
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (block[1] != 1 || block[2] != 1 || grid[1] != 1 || grid[2] != 1)
    return "atomic-scopes uses 1D blocks and grids: got block " + dims_text(block) + ", grid " +
           dims_text(grid);
  const unsigned long long threads = (unsigned long long)grid[0] * block[0];
  const unsigned long long pair_span = 2ull * (unsigned long long)o.distance;
  if (threads % pair_span != 0)
    return "the litmus test pairs threads " + std::to_string(o.distance) +
           " apart, so the grid's " + std::to_string(threads) + " threads must be a multiple of " +
           std::to_string(pair_span);
  if (threads > (1u << 20))
    return "atomic-scopes traces at most 1048576 threads: got " + std::to_string(threads);
  return "";
}

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// The launch's error after it finished, if any, as an error line's text.
std::string finished(const char* kernel) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e == cudaSuccess ? "" : std::string(kernel) + ": " + error_words(e);
}

// [SECTION] Scopes

std::string run_scopes(const Options& o, bool& failed) {
  const unsigned blocks = o.launch.grid[0], block = o.launch.block[0];
  const int n = int(o.threads());
  int *per_block, *grid_count, *system_count;
  cudaMalloc(&per_block, blocks * sizeof(int));
  cudaMalloc(&grid_count, sizeof(int));
  cudaMalloc(&system_count, sizeof(int));
  cudaMemset(per_block, 0, blocks * sizeof(int));
  cudaMemset(grid_count, 0, sizeof(int));
  cudaMemset(system_count, 0, sizeof(int));
  scoped_counts<<<blocks, block>>>(per_block, grid_count, system_count);
  if (std::string e = finished("scoped_counts"); !e.empty()) return e;
  std::vector<int> pb(blocks);
  int gc = 0, sc = 0;
  cudaMemcpy(pb.data(), per_block, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&gc, grid_count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&sc, system_count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(per_block);
  cudaFree(grid_count);
  cudaFree(system_count);
  const size_t full = size_t(std::count(pb.begin(), pb.end(), int(block)));
  lesson_check(full == blocks, "scopes: each block counted its own threads at block scope",
               std::to_string(blocks) + " blocks at " + std::to_string(block),
               std::to_string(full) + " blocks at " + std::to_string(block), failed);
  lesson_check(gc == n, "scopes: the device-scope counter saw every thread", std::to_string(n),
               std::to_string(gc), failed);
  lesson_check(sc == n, "scopes: the system-scope counter saw every thread", std::to_string(n),
               std::to_string(sc), failed);
  // Each atomic's scope is in the trace: the adds plus thread 0's final load at block scope.
  printf(
      "[trace] scopes: the trace records each atomic's scope: expected %u atomic at block "
      "scope, %d atomic at device scope, %d atomic at system scope in scoped_counts\n",
      unsigned(n) + blocks, n, n);
  lesson_result("scopes: per-block counts (block scope, shared memory)",
                std::to_string(full) + " of " + std::to_string(blocks) + " blocks hold " +
                    std::to_string(block));
  lesson_result("scopes: grid counter (device scope) / system counter",
                std::to_string(gc) + " / " + std::to_string(sc));
  return "";
}

// [SECTION] The seed's sumReduction

std::string run_sum_reduction(const Options& o, bool& failed) {
  const int n = int(o.threads());
  std::vector<float> values(static_cast<size_t>(n));
  std::mt19937 rng(uint32_t(o.data));
  std::uniform_real_distribution<float> value(0.5f, 1.5f);
  for (float& v : values) v = value(rng);
  float *array, *result;
  cudaMalloc(&array, values.size() * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemcpy(array, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(result, 0, sizeof(float));
  sum_reduction<<<o.launch.grid[0], o.launch.block[0]>>>(n, array, result);
  if (std::string e = finished("sum_reduction"); !e.empty()) return e;
  float total = 0;
  cudaMemcpy(&total, result, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(array);
  cudaFree(result);
  double exact = 0, magnitude = 0;
  for (float v : values) {
    exact += v;
    magnitude += std::fabs(v);
  }
  // Float atomics land in any order and float addition is not associative: each of the n adds
  // may round by half an ulp of the running sum.
  const double bound = double(n) * std::ldexp(1.0, -24) * magnitude;
  lesson_check(std::fabs(total - exact) <= bound,
               "sumReduction: the total is within float rounding of the exact sum",
               "|total - " + format_float(exact, 12) + "| <= " + format_float(bound, 3),
               format_float(total), failed);
  // One fetch_add per thread lands on result: the trace holds each one, with the old value it
  // found (the Atomics tab's landing order).
  printf("[trace] sumReduction: every fetch_add: expected %d atomic in sum_reduction\n", n);
  lesson_result("sumReduction: total / exact",
                format_float(total) + " / " + format_float(exact, 12));
  return "";
}

// [SECTION] The message-passing litmus test

// What a reader saw, indexed by seen = 2 * flag + data.
using Histogram = std::array<unsigned long long, 4>;
constexpr int kWeak = 2;  // flag 1, data 0: the message arrived before its data
const char* const kOutcome[4] = {"flag 0 data 0", "flag 0 data 1", "flag 1 data 0",
                                 "flag 1 data 1"};

struct Ordering {
  const char* name;
  bool release_acquire;  // which kernel: message_release_acquire, else message_relaxed
  // The outcomes the C++ / PTX memory model allows (bit i: outcome i). Relaxed allows all four;
  // release/acquire forbids flag 1 with data 0.
  unsigned allowed;
};
const Ordering kOrderings[2] = {{"relaxed", false, 0xF},
                                {"release/acquire", true, 0xF & ~(1u << kWeak)}};

std::string describe(const Histogram& h) {
  std::string s;
  for (int o = 0; o < 4; ++o)
    s += (o ? ", " : "") + std::string(kOutcome[o]) + ": " + std::to_string(h[o]);
  return s;
}

std::string outcome_set(unsigned bits) {
  std::string s;
  for (int o = 0; o < 4; ++o)
    if (bits & (1u << o)) s += (s.empty() ? "" : ", ") + std::string("(") + kOutcome[o] + ")";
  return s.empty() ? "none" : s;
}

unsigned seen_set(const Histogram& h) {
  unsigned bits = 0;
  for (int o = 0; o < 4; ++o) bits |= h[o] ? 1u << o : 0u;
  return bits;
}

// The litmus test's memory for `pairs` writer-reader pairs.
struct Buffers {
  size_t pairs;
  int *data, *flag, *seen;
  explicit Buffers(size_t count) : pairs(count) {
    cudaMalloc(&data, pairs * sizeof(int));
    cudaMalloc(&flag, pairs * sizeof(int));
    cudaMalloc(&seen, pairs * sizeof(int));
  }
  ~Buffers() {
    cudaFree(data);
    cudaFree(flag);
    cudaFree(seen);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;

  // One launch over fresh memory; adds what the readers saw to `h`. Readers that recorded nothing
  // (seen still -1) count as `missing`.
  std::string round(const Ordering& o, unsigned grid, unsigned block, int distance, Histogram& h,
                    unsigned long long& missing) {
    cudaMemset(data, 0, pairs * sizeof(int));
    cudaMemset(flag, 0, pairs * sizeof(int));
    cudaMemset(seen, 0xff, pairs * sizeof(int));
    if (o.release_acquire)
      message_release_acquire<<<grid, block>>>(data, flag, seen, distance);
    else
      message_relaxed<<<grid, block>>>(data, flag, seen, distance);
    const char* kernel = o.release_acquire ? "message_release_acquire" : "message_relaxed";
    if (std::string e = finished(kernel); !e.empty()) return e;
    std::vector<int> got(pairs);
    cudaMemcpy(got.data(), seen, pairs * sizeof(int), cudaMemcpyDeviceToHost);
    for (int v : got) {
      if (v >= 0 && v < 4)
        ++h[size_t(v)];
      else
        ++missing;
    }
    return "";
  }
};

std::string run_litmus(const Options& o, const std::vector<Ordering>& chosen, bool& failed) {
  const int distance = int(o.distance), runs = int(o.runs);
  const unsigned grid = o.launch.grid[0], block = o.launch.block[0];
  Buffers buffers(o.threads() / 2);

  // One launch per ordering, the one a trace shows.
  for (const Ordering& order : chosen) {
    Histogram h{};
    unsigned long long missing = 0;
    if (std::string e = buffers.round(order, grid, block, distance, h, missing); !e.empty())
      return e;
    const std::string tag = std::string("traced ") + order.name;
    lesson_check(missing == 0, tag + ": every reader recorded what it saw", "0 missing",
                 std::to_string(missing) + " missing", failed);
    if (order.allowed != 0xF)
      lesson_check((seen_set(h) & ~order.allowed) == 0,
                   tag + ": only outcomes the memory model allows", outcome_set(order.allowed),
                   outcome_set(seen_set(h)), failed);
    lesson_result(tag + ", distance " + std::to_string(distance), describe(h));
  }
  for (const Ordering& order : chosen)
    lesson_result(std::string("allowed by the model, ") + order.name, outcome_set(order.allowed));

  // Many more runs, repeats of a launch already shown. On the emulator repeat k runs under seed
  // k past the run's (lesson.json's vary_repeats), as a GPU's repeats each interleave as they
  // happen to; a GPU repeats a large grid at several distances
  // (neighbouring lanes, neighbouring warps, neighbouring blocks, far apart).
  unsigned wide_grid = grid, wide_block = block;
  std::vector<int> distances = {distance};
  if (o.launch.gpu) {
    wide_grid = 512;
    wide_block = 256;
    distances = {1, 32, 256, int(wide_grid * wide_block / 2)};
  }
  std::unique_ptr<Buffers> own;
  if (o.launch.gpu) own = std::make_unique<Buffers>(size_t(wide_grid) * wide_block / 2);
  Buffers& wide = own ? *own : buffers;
  for (const Ordering& order : chosen) {
    Histogram all{};
    for (int d : distances) {
      Histogram h{};
      unsigned long long missing = 0;
      for (int r = 1; r <= runs; ++r)
        if (std::string e = wide.round(order, wide_grid, wide_block, d, h, missing); !e.empty())
          return e;
      for (int i = 0; i < 4; ++i) all[i] += h[i];
      lesson_result(std::string(order.name) + ", distance " + std::to_string(d) + " (" +
                        (o.launch.gpu ? "GPU, " : "emulator, ") + std::to_string(runs) + " runs)",
                    describe(h));
    }
    // What the model forbids must never appear; what it allows may or may not (hardware owes
    // us no particular outcome, and the emulator only ever runs one interleaving at a time).
    if (order.allowed != 0xF)
      lesson_check((seen_set(all) & ~order.allowed) == 0,
                   std::string(order.name) + ": no forbidden outcome in any run",
                   "only " + outcome_set(order.allowed), outcome_set(seen_set(all)), failed);
    if (!o.launch.gpu)
      lesson_check(
          all[kWeak] == 0,
          std::string(order.name) + ": the emulator's outcomes are sequentially consistent",
          "never (flag 1 data 0)", std::to_string(all[kWeak]) + " times", failed);
    lesson_result(std::string(order.name) + ": outcomes produced", outcome_set(seen_set(all)));
  }
  return "";
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  bool failed = false;
  const long part = o.part;
  if (part == kAll || part == kScopes)
    if (std::string e = run_scopes(o, failed); !e.empty()) return lesson_error(e);
  if (part == kAll || part == kSumReduction)
    if (std::string e = run_sum_reduction(o, failed); !e.empty()) return lesson_error(e);
  std::vector<Ordering> chosen;
  if (part == kAll || part == kRelaxed) chosen.push_back(kOrderings[0]);
  if (part == kAll || part == kReleaseAcquire) chosen.push_back(kOrderings[1]);
  if (!chosen.empty())
    if (std::string e = run_litmus(o, chosen, failed); !e.empty()) return lesson_error(e);
  return failed ? 1 : 0;
}
