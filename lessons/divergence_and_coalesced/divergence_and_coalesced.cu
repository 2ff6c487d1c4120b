// The divergence-and-coalesced lesson as an ordinary CUDA program (`coopviz run lessons/
// divergence_and_coalesced/divergence_and_coalesced.cu`, or nvcc): divergence_and_coalesced.cuh's
// kernels on the lesson's input (values 0..99 from mt19937; pattern 1 gives exactly the odd lanes
// a value below keep): the coalesced group inside a branch, then stream compaction with one
// atomic per thread and with one per group, checked against the CPU. On a GPU it also times both
// compactions over a large array.
//   arguments: --backend=emulator|gpu --grid=G --block=B --keep=N --pattern=0|1 --data=SEED
//              --timing_log2=N
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

namespace cg = cooperative_groups;

constexpr int kSlots = 3;  // results per thread in branch_ranks

// Only threads whose value is below the threshold enter the branch. Inside it,
// coalesced_threads() is the group of this warp's threads that are executing it together, and
// thread_rank() numbers only them: 0, 1, 2, ... in lane order, with no gaps.
__global__ void branch_ranks(const int* in, int threshold, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int* o = out + i * kSlots;
  if (in[i] < threshold) {
    cg::coalesced_group active = cg::coalesced_threads();
    o[0] = active.thread_rank();
    o[1] = active.size();
    o[2] = active.shfl(lane, 0);  // the warp lane of rank 0: names the group
  }
}

// Stream compaction, the plain way: every kept value costs one atomic on the one counter.
__global__ void keep_per_thread(const int* in, int threshold, int* count, int* kept) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < threshold) {
    const int slot = atomicAdd(count, 1);
    kept[slot] = in[i];
  }
}

// The same with a warp-aggregated atomic: the threads that arrive together reserve all their
// slots with one atomicAdd by rank 0, which then hands the first slot to the others.
__global__ void keep_aggregated(const int* in, int threshold, int* count, int* kept) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] < threshold) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(count, int(active.size()));
    base = active.shfl(base, 0);
    kept[base + active.thread_rank()] = in[i];
  }
}

// [SECTION] Arguments

struct Options {
  LessonLaunch launch;
  long keep = 40, pattern = 0, data = 1, timing_log2 = 22;
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 2;
  o.launch.block[0] = 64;
  const std::string error = parse_lesson_arguments(argc, argv, o.launch,
                                                   {{"keep", 0, 100, &o.keep},
                                                    {"pattern", 0, 1, &o.pattern},
                                                    {"data", 0, 1 << 30, &o.data},
                                                    {"timing_log2", 21, 26, &o.timing_log2}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (block[1] != 1 || block[2] != 1 || grid[1] != 1 || grid[2] != 1)
    return "divergence-and-coalesced uses 1D blocks and grids: got block " + dims_text(block) +
           ", grid " + dims_text(grid);
  if (block[0] % 32 != 0)
    return "divergence-and-coalesced works on whole warps: block size " + std::to_string(block[0]) +
           " is not a multiple of 32";
  if (grid[0] > 1024)
    return "divergence-and-coalesced allows at most 1024 blocks in its traced runs: got " +
           std::to_string(grid[0]);
  if (o.pattern == 1 && (o.keep < 1 || o.keep > 99))
    return "pattern 1 (odd lanes) needs 1 <= keep <= 99 so both halves have values: got keep = " +
           std::to_string(o.keep);
  return "";
}

// [SECTION] Input and CPU reference

// pattern 0: random values 0..99; 1: odd lanes below `keep`, even lanes at or above it.
std::vector<int> make_values(size_t n, int keep, long pattern, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> v(n);
  for (size_t i = 0; i < n; ++i) {
    if (pattern == 0)
      v[i] = int(rng() % 100);
    else
      v[i] = i % 2 ? int(rng() % unsigned(keep)) : keep + int(rng() % unsigned(100 - keep));
  }
  return v;
}

// The values below keep, sorted: what either compaction keeps, in some order.
std::vector<int> kept_values(const std::vector<int>& values, int keep) {
  std::vector<int> expect;
  for (int v : values)
    if (v < keep) expect.push_back(v);
  std::sort(expect.begin(), expect.end());
  return expect;
}

// [SECTION] The group inside the branch

void run_ranks(const Options& o, const std::vector<int>& values, bool& failed) {
  const int keep = int(o.keep);
  const size_t n = values.size();
  std::vector<int> got(n * kSlots, -1);
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, got.size() * sizeof(int));
  cudaMemcpy(in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(out, got.data(), got.size() * sizeof(int), cudaMemcpyHostToDevice);
  branch_ranks<<<o.launch.grid[0], o.launch.block[0]>>>(in, keep, out);
  cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);

  // Who entered the branch is fixed by the data; how the hardware grouped them is not, so the
  // groups are rebuilt from what each thread reported: (warp, lane of its rank 0).
  size_t right_entry = 0, warps_in_branch = 0;
  std::map<std::pair<size_t, int>, std::vector<size_t>> groups;  // members, in lane order
  for (size_t i = 0; i < n; ++i) {
    const bool entered = got[i * kSlots] != -1;
    right_entry += entered == (values[i] < keep);
    if (entered) groups[{i / 32, got[i * kSlots + 2]}].push_back(i);
  }
  for (size_t w = 0; w < n / 32; ++w)
    warps_in_branch +=
        std::any_of(values.begin() + long(w * 32), values.begin() + long(w * 32 + 32),
                    [&](int v) { return v < keep; });
  size_t good_groups = 0;
  for (const auto& [key, members] : groups) {
    bool good = int(members.front() % 32) == key.second;  // rank 0 is the lowest lane
    for (size_t r = 0; r < members.size(); ++r) {
      good &= got[members[r] * kSlots] == int(r);
      good &= got[members[r] * kSlots + 1] == int(members.size());
    }
    good_groups += good;
  }
  lesson_check(right_entry == n, "exactly the threads whose value is below keep entered the branch",
               count_of(n, n) + " threads", count_of(right_entry, n) + " threads", failed);
  lesson_check(good_groups == groups.size(),
               "each coalesced group ranks its members 0..size-1 in lane order",
               count_of(groups.size(), groups.size()) + " groups",
               count_of(good_groups, groups.size()) + " groups", failed);
  std::string ranks;
  for (size_t l = 0; l < 32 && l < n; ++l)
    ranks +=
        (l ? " " : "") + (got[l * kSlots] < 0 ? std::string(".") : std::to_string(got[l * kSlots]));
  lesson_result("warp 0 ranks inside the branch (. stayed out)", ranks);
  lesson_result("coalesced groups formed", std::to_string(groups.size()) + " (in " +
                                               std::to_string(warps_in_branch) +
                                               " warps with threads in the branch)");
}

// [SECTION] Stream compaction, both ways

// Checks a compaction's counter and the first `count` values it kept against `expect`.
void check_compaction(const std::string& name, int count, std::vector<int> kept,
                      const std::vector<int>& expect, bool& failed) {
  kept.resize(size_t(std::clamp(count, 0, int(kept.size()))));
  std::sort(kept.begin(), kept.end());
  lesson_check(count == int(expect.size()), name + ": the counter equals the number of values kept",
               std::to_string(expect.size()), std::to_string(count), failed);
  lesson_check(kept == expect, name + ": the kept values are exactly those below keep (any order)",
               std::to_string(expect.size()) + " values, sorted equal",
               kept == expect ? "equal" : "different", failed);
}

// Both compactions at the lesson's launch, each into the same `kept` with `count` zeroed first.
void run_compactions(const Options& o, const std::vector<int>& values, bool& failed) {
  const int keep = int(o.keep);
  const size_t n = values.size();
  const std::vector<int> expect = kept_values(values, keep);
  std::vector<int> host_kept(n, -1);
  int *in, *count, *kept;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&kept, n * sizeof(int));
  cudaMemcpy(in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(count, 0, sizeof(int));
  cudaMemcpy(kept, host_kept.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  for (int way = 0; way < 2; ++way) {
    cudaMemset(count, 0, sizeof(int));
    if (way == 0)
      keep_per_thread<<<o.launch.grid[0], o.launch.block[0]>>>(in, keep, count, kept);
    else
      keep_aggregated<<<o.launch.grid[0], o.launch.block[0]>>>(in, keep, count, kept);
    int counted = 0;
    cudaMemcpy(&counted, count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(host_kept.data(), kept, n * sizeof(int), cudaMemcpyDeviceToHost);
    check_compaction(way == 0 ? "one atomic per thread" : "warp-aggregated", counted, host_kept,
                     expect, failed);
  }
  // How many atomics each way issued is in the trace, which coopviz counts: one per kept value,
  // and one per coalesced group, however many groups the warps formed.
  printf("[trace] one atomic per thread: the trace holds one atomic per kept value: "
         "expected %zu atomic in keep_per_thread\n", expect.size());
  printf("[trace] warp-aggregated: the trace holds one atomic per coalesced group: "
         "expected as many atomic as group_create of coalesced at rank 0 in keep_aggregated\n");
  printf("[count] atomics issued, one per thread: atomic in keep_per_thread\n");
  printf("[count] atomics issued, warp-aggregated: atomic in keep_aggregated\n");
  cudaFree(in);
  cudaFree(count);
  cudaFree(kept);
}

// GPU only: both compactions over 2^timing_log2 values, best of 5 timed launches after a warm-up.
void time_compactions(const Options& o, bool& failed) {
  const int keep = int(o.keep);
  const size_t n = size_t(1) << o.timing_log2;
  const std::vector<int> values = make_values(n, keep, o.pattern, unsigned(o.data) + 1);
  const std::vector<int> expect = kept_values(values, keep);
  const unsigned blocks = unsigned(n / 256);
  int *in, *count, *kept;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&kept, n * sizeof(int));
  cudaMemcpy(in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(kept, 0, n * sizeof(int));
  float ms[2] = {0, 0};
  std::vector<int> host_kept(n);
  for (int way = 0; way < 2; ++way) {
    ms[way] = best_launch_ms(
        5, [&] { cudaMemset(count, 0, sizeof(int)); },
        [&] {
          if (way == 0)
            keep_per_thread<<<blocks, 256>>>(in, keep, count, kept);
          else
            keep_aggregated<<<blocks, 256>>>(in, keep, count, kept);
        });
    int counted = 0;
    cudaMemcpy(&counted, count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(host_kept.data(), kept, n * sizeof(int), cudaMemcpyDeviceToHost);
    check_compaction(way == 0 ? "timed, one atomic per thread" : "timed, warp-aggregated", counted,
                     host_kept, expect, failed);
  }
  cudaFree(in);
  cudaFree(count);
  cudaFree(kept);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  lesson_result("time, one atomic per thread", format_float(ms[0], 4) + " ms");
  lesson_result("time, warp-aggregated", format_float(ms[1], 4) + " ms");
  lesson_result("speed-up of aggregation", format_float(ms[0] / ms[1], 3) + "x");
  lesson_result("timed launches", std::to_string(blocks) + " blocks x 256 threads, " +
                                      std::to_string(expect.size()) + " values kept, on " +
                                      prop.name);
}

int main(int argc, char** argv) {
  Options o;
  if (std::string e = parse(argc, argv, o); !e.empty()) return lesson_error(e);
  const size_t n = size_t(o.launch.grid[0]) * o.launch.block[0];
  const std::vector<int> values = make_values(n, int(o.keep), o.pattern, unsigned(o.data));
  bool failed = false;
  run_ranks(o, values, failed);
  run_compactions(o, values, failed);
  if (o.launch.gpu)
    time_compactions(o, failed);
  else
    lesson_skip_timing("warp-aggregated atomics timed against one per thread");
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    return lesson_error(cudaGetErrorString(e));
  return failed ? 1 : 0;
}
