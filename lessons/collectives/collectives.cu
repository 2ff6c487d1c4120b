// The collectives lesson as an ordinary CUDA program: collectives.cuh's kernels (reduce with six
// operators and a scan, the scans that pack runs, invoke_one, the same tile sum three ways), the
// lesson's input and its checks against a CPU reference; with --backend=gpu the three sums are
// also timed. Run plainly (`nvcc collectives.cu && ./a.out`) it runs the lesson's defaults
// untimed; coopviz passes the launch and every parameter:
//   --backend=emulator|gpu --grid=X --block=X --data=N --rounds=N
// Each check prints one line "[pass] NAME: expected E, got G" ("[FAIL]" when it fails, "[skip]"
// with the reason when it cannot run here), each result "[result] NAME = VALUE"; the exit status
// is 1 when a check failed, 2 for arguments it cannot run (one line "error: ..." on stderr).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kOps = 7;       // results per lane in reduce_six_ways
constexpr int kMaxCount = 4;  // pack_runs: each lane emits 0..3 items, so a tile fills < 32 * 4

// Every lane hands in one value; every lane gets back the whole tile's answer, six ways.
__global__ void reduce_six_ways(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  int* o = out + i * kOps;
  o[0] = cg::reduce(tile, v, cg::plus<int>());
  o[1] = cg::reduce(tile, v, cg::less<int>());
  o[2] = cg::reduce(tile, v, cg::greater<int>());
  o[3] = cg::reduce(tile, v, cg::bit_and<int>());
  o[4] = cg::reduce(tile, v, cg::bit_or<int>());
  o[5] = cg::reduce(tile, v, cg::bit_xor<int>());
  // A scan keeps the partial answers: lane r gets the maximum of lanes 0..r.
  o[6] = cg::inclusive_scan(tile, v, cg::greater<int>());
}

// Each lane wants to write `count` copies of its rank into one packed list per tile. The
// exclusive scan of the counts is where its run starts, the inclusive scan where it ends.
__global__ void pack_runs(const int* counts, int* starts, int* ends, int* packed) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int count = counts[i];
  const int start = cg::exclusive_scan(tile, count);
  const int end = cg::inclusive_scan(tile, count);
  starts[i] = start;
  ends[i] = end;
  int* list = packed + i / 32 * 32 * kMaxCount;
  for (int k = start; k < end; ++k) list[k] = tile.thread_rank();
}

// One lane of each tile does a serial job for the tile; which lane is the hardware's choice.
__global__ void one_for_all(int* chosen, int* runs, int* heard) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = i / 32;  // this tile's index across the grid
  cg::invoke_one(tile, [&] {
    chosen[t] = tile.thread_rank();
    runs[t] = runs[t] + 1;  // plain read-modify-write: safe only because one lane runs it
  });
  // The same election, and every lane receives what the chosen lane returned.
  heard[i] = cg::invoke_one_broadcast(tile, [&] { return int(tile.thread_rank()); });
}

// [SECTION] The same tile sum three ways, for timing on a GPU (rounds dependent reductions).

// cooperative_groups' reduce of 4-byte integers: one redux.sync instruction on cc 8.0+.
__global__ void sum_hardware(const unsigned* in, unsigned* out, int rounds) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int r = 0; r < rounds; ++r)
    v = cg::reduce(tile, v + tile.thread_rank(), cg::plus<unsigned>());
  out[i] = v;
}

// The software way: five shfl_xor steps; after step k every lane holds the sum of 2^k lanes.
__device__ unsigned sum_by_shuffles(const cg::thread_block_tile<32>& tile, unsigned v) {
  for (int offset = 16; offset > 0; offset /= 2) v += tile.shfl_xor(v, offset);
  return v;
}

__global__ void sum_shuffles(const unsigned* in, unsigned* out, int rounds) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int r = 0; r < rounds; ++r) v = sum_by_shuffles(tile, v + tile.thread_rank());
  out[i] = v;
}

// The same reduce on 8-byte integers: no hardware instruction, cooperative_groups shuffles.
__global__ void sum_wide(const unsigned* in, unsigned* out, int rounds) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long v = in[i];
  for (int r = 0; r < rounds; ++r)
    v = cg::reduce(tile, v + tile.thread_rank(), cg::plus<unsigned long long>());
  out[i] = unsigned(v);  // the low 32 bits equal the 4-byte sum's (addition modulo 2^32)
}

// [SECTION] The run's settings, from the command line

struct Settings {
  unsigned grid = 2, block = 64;
  long long data = 1, rounds = 256;
  std::string backend;  // "emulator", "gpu" or, run plainly, "" (then nothing is timed)
};

// Empty when the run can go ahead, else what is wrong and the limit.
std::string parse(int argc, char** argv, Settings& s) {
  struct Param {
    const char* name;
    long long* value;
    long long min, max;
  } params[] = {{"data", &s.data, 0, 1 << 30}, {"rounds", &s.rounds, 1, 4096}};
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    const char* eq = std::strchr(arg, '=');
    const std::string name = eq && std::strncmp(arg, "--", 2) == 0 ? std::string(arg + 2, eq) : "";
    const char* value = eq ? eq + 1 : "";
    if (name == "backend") {
      s.backend = value;
      if (s.backend != "emulator" && s.backend != "gpu")
        return "--backend is emulator or gpu: got " + s.backend;
      continue;
    }
    char* end = nullptr;
    if (name == "grid" || name == "block") {
      // The kernels index by blockIdx.x and threadIdx.x alone: a 1D launch.
      const unsigned long x = std::strtoul(value, &end, 10);
      if (end == value || *end != '\0' || x == 0 || x > 0xffffffffUL)
        return "collectives uses 1D blocks and grids: got --" + name + "=" + value;
      (name == "grid" ? s.grid : s.block) = unsigned(x);
      continue;
    }
    Param* p = nullptr;
    for (Param& q : params) p = name == q.name ? &q : p;
    if (!p)
      return std::string("unknown argument ") + arg +
             " (collectives takes --backend, --grid, --block, --data, --rounds)";
    const long long v = std::strtoll(value, &end, 10);
    if (end == value || *end != '\0' || v < p->min || v > p->max)
      return "parameter " + name + " = " + value + " is outside " + std::to_string(p->min) + ".." +
             std::to_string(p->max);
    *p->value = v;
  }
  // The lesson's launch rules.
  if (s.block % 32 != 0)
    return "collectives works on whole 32-thread tiles: block size " + std::to_string(s.block) +
           " is not a multiple of 32";
  if (s.grid > 1024)
    return "collectives allows at most 1024 blocks in its traced runs: got " +
           std::to_string(s.grid);
  return "";
}

// [SECTION] CPU reference

const char* const kOpNames[kOps] = {"plus (sum)", "less (minimum)", "greater (maximum)", "bit_and",
                                    "bit_or",     "bit_xor",        "running maximum"};

// What every lane of a 32-value tile should hold for each slot of reduce_six_ways.
std::vector<int> cpu_six_ways(const int* v) {
  std::vector<int> out(32 * kOps);
  int sum = 0, lo = v[0], hi = v[0], all = ~0, any = 0, odd = 0;
  for (int l = 0; l < 32; ++l) {
    sum += v[l];
    lo = std::min(lo, v[l]);
    hi = std::max(hi, v[l]);
    all &= v[l];
    any |= v[l];
    odd ^= v[l];
  }
  int running = v[0];
  for (int l = 0; l < 32; ++l) {
    running = std::max(running, v[l]);
    const int row[kOps] = {sum, lo, hi, all, any, odd, running};
    std::copy(row, row + kOps, &out[l * kOps]);
  }
  return out;
}

// Tile sum of (value + lane) repeated `rounds` times, modulo 2^32, as the sum_* kernels do it.
unsigned cpu_rounds(const unsigned* v, int rounds) {
  std::vector<unsigned> lane(v, v + 32);
  for (int r = 0; r < rounds; ++r) {
    unsigned s = 0;
    for (unsigned l = 0; l < 32; ++l) s += lane[l] + l;
    std::fill(lane.begin(), lane.end(), s);
  }
  return lane[0];
}

// [SECTION] Reporting

std::string list(const std::vector<int>& v, size_t max = 8) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s + (v.size() > max ? " ..." : "");
}

std::string count_of(size_t good, size_t all) {
  return std::to_string(good) + " of " + std::to_string(all);
}

std::string format_float(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

bool passed = true;

void check(const std::string& name, const std::string& expected, const std::string& got,
           bool pass) {
  std::printf("[%s] %s: expected %s, got %s\n", pass ? "pass" : "FAIL", name.c_str(),
              expected.c_str(), got.c_str());
  passed &= pass;
}

void result(const std::string& name, const std::string& value) {
  std::printf("[result] %s = %s\n", name.c_str(), value.c_str());
}

// The launch just made ran; else the error line, and the program ends with status 2.
void finished(const char* kernel) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "error: %s: %s\n", kernel, cudaGetErrorString(e));
  std::exit(2);
}

template <class T>
std::vector<T> download(const T* d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

// [SECTION] The runs, one a kernel

void run_reductions(dim3 grid, dim3 block, const std::vector<int>& values) {
  const size_t n = values.size(), tiles = n / 32;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * kOps * sizeof(int));
  cudaMemcpy(in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * kOps * sizeof(int));
  reduce_six_ways<<<grid, block>>>(in, out);
  finished("reduce_six_ways");
  const std::vector<int> got = download(out, n * kOps);
  std::vector<size_t> good(kOps, 0);
  for (size_t t = 0; t < tiles; ++t) {
    const std::vector<int> expect = cpu_six_ways(&values[t * 32]);
    for (size_t l = 0; l < 32; ++l)
      for (int k = 0; k < kOps; ++k)
        good[k] += expect[l * kOps + k] == got[(t * 32 + l) * kOps + k];
  }
  for (int k = 0; k < kOps; ++k)
    check(std::string(k < 6 ? "reduce " : "inclusive_scan ") + kOpNames[k] +
              ": every lane equals the CPU",
          count_of(n, n) + " lanes", count_of(good[k], n) + " lanes", good[k] == n);
  result("tile 0 inputs", list(std::vector<int>(values.begin(), values.begin() + 32), 32));
  for (int k = 0; k < 6; ++k) result(std::string("tile 0, ") + kOpNames[k], std::to_string(got[k]));
  cudaFree(in);
  cudaFree(out);
}

void run_scans(dim3 grid, dim3 block, const std::vector<int>& host_counts) {
  const size_t n = host_counts.size(), tiles = n / 32;
  const std::vector<int> unwritten(n * kMaxCount, -1);
  int *counts, *starts, *ends, *packed;
  cudaMalloc(&counts, n * sizeof(int));
  cudaMalloc(&starts, n * sizeof(int));
  cudaMalloc(&ends, n * sizeof(int));
  cudaMalloc(&packed, n * kMaxCount * sizeof(int));
  cudaMemcpy(counts, host_counts.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(starts, 0, n * sizeof(int));
  cudaMemset(ends, 0, n * sizeof(int));
  cudaMemcpy(packed, unwritten.data(), n * kMaxCount * sizeof(int), cudaMemcpyHostToDevice);
  pack_runs<<<grid, block>>>(counts, starts, ends, packed);
  finished("pack_runs");
  const std::vector<int> got_starts = download(starts, n), got_ends = download(ends, n);
  const std::vector<int> got_packed = download(packed, n * kMaxCount);
  size_t good_starts = 0, good_ends = 0, good_lists = 0;
  for (size_t t = 0; t < tiles; ++t) {
    int running = 0;
    std::vector<int> expect(32 * kMaxCount, -1);
    for (size_t l = 0; l < 32; ++l) {
      const size_t i = t * 32 + l;
      good_starts += got_starts[i] == running;
      for (int k = 0; k < host_counts[i]; ++k) expect[size_t(running + k)] = int(l);
      running += host_counts[i];
      good_ends += got_ends[i] == running;
    }
    good_lists +=
        std::equal(expect.begin(), expect.end(), got_packed.begin() + long(t * expect.size()));
  }
  check("exclusive_scan: each run starts after the counts of lower lanes",
        count_of(n, n) + " lanes", count_of(good_starts, n) + " lanes", good_starts == n);
  check("inclusive_scan: each run ends after its own count", count_of(n, n) + " lanes",
        count_of(good_ends, n) + " lanes", good_ends == n);
  check("packed lists equal the CPU's, with no gaps or overlaps", count_of(tiles, tiles) + " tiles",
        count_of(good_lists, tiles) + " tiles", good_lists == tiles);
  result("tile 0 counts",
         list(std::vector<int>(host_counts.begin(), host_counts.begin() + 32), 32));
  result("tile 0 starts", list(std::vector<int>(got_starts.begin(), got_starts.begin() + 32), 32));
  result("tile 0 packed",
         list(std::vector<int>(got_packed.begin(), got_packed.begin() + got_ends[31]), 96));
  cudaFree(counts);
  cudaFree(starts);
  cudaFree(ends);
  cudaFree(packed);
}

void run_invoke(dim3 grid, dim3 block, bool on_gpu) {
  const size_t n = size_t(grid.x) * block.x, tiles = n / 32;
  int *chosen, *runs, *heard;
  cudaMalloc(&chosen, tiles * sizeof(int));
  cudaMalloc(&runs, tiles * sizeof(int));
  cudaMalloc(&heard, n * sizeof(int));
  cudaMemset(chosen, 0, tiles * sizeof(int));
  cudaMemset(runs, 0, tiles * sizeof(int));
  cudaMemset(heard, 0, n * sizeof(int));
  one_for_all<<<grid, block>>>(chosen, runs, heard);
  finished("one_for_all");
  const std::vector<int> got_chosen = download(chosen, tiles), got_runs = download(runs, tiles);
  const std::vector<int> got_heard = download(heard, n);
  size_t once = 0, valid = 0, agreed = 0;
  std::vector<int> broadcast(tiles);
  for (size_t t = 0; t < tiles; ++t) {
    once += got_runs[t] == 1;
    valid += got_chosen[t] >= 0 && got_chosen[t] < 32;
    broadcast[t] = got_heard[t * 32];
    bool same = broadcast[t] >= 0 && broadcast[t] < 32;
    for (size_t l = 0; l < 32; ++l) same &= got_heard[t * 32 + l] == broadcast[t];
    agreed += same;
  }
  const std::string all_tiles = count_of(tiles, tiles) + " tiles";
  check("invoke_one ran its job exactly once per tile", all_tiles, count_of(once, tiles) + " tiles",
        once == tiles);
  check("invoke_one chose a lane of the tile (0..31)", all_tiles, count_of(valid, tiles) + " tiles",
        valid == tiles);
  check("invoke_one_broadcast: all 32 lanes heard the chosen lane's rank", all_tiles,
        count_of(agreed, tiles) + " tiles", agreed == tiles);
  result("invoke_one chose, per tile", list(got_chosen));
  result("invoke_one_broadcast chose, per tile", list(broadcast));
  // Which seed the emulator's choice follows is coopviz's setting, not told to the program.
  result("who chooses", on_gpu
                            ? "the hardware (elect.sync on cc 9.0+): it may change between runs, "
                              "though it usually does not"
                            : "the emulator: rank 0 with seed 0, other lanes with other seeds");
  cudaFree(chosen);
  cudaFree(runs);
  cudaFree(heard);
}

// [SECTION] The same tile sum three ways

const char* const kSumNames[3] = {"cg::reduce, 4-byte", "shfl_xor loop", "cg::reduce, 8-byte"};
// The warp collectives each lane calls per round, as the kernels are written: one reduce, or
// five shfl_xor steps (a trace of one round counts one collective event for each).
const int kCollectivesPerRound[3] = {1, 5, 1};

void sum_way(int way, dim3 grid, dim3 block, const unsigned* in, unsigned* out, int rounds) {
  if (way == 0) sum_hardware<<<grid, block>>>(in, out, rounds);
  if (way == 1) sum_shuffles<<<grid, block>>>(in, out, rounds);
  if (way == 2) sum_wide<<<grid, block>>>(in, out, rounds);
}

// Each way once (traced, the lesson's launch and one round) or, timed, the best of five launches
// after a warm-up; every lane's sum checked against the CPU's.
void run_sums_once(dim3 grid, dim3 block, int rounds, bool timed, unsigned seed,
                   std::vector<float>* ms) {
  const size_t n = size_t(grid.x) * block.x;
  std::mt19937 rng(seed);
  std::vector<unsigned> values(n);
  for (unsigned& x : values) x = rng() % 1000;
  std::vector<unsigned> expect(n / 32);  // each tile's sum after `rounds` rounds
  for (size_t t = 0; t < expect.size(); ++t) expect[t] = cpu_rounds(&values[t * 32], rounds);
  unsigned *in, *out;
  cudaMalloc(&in, n * sizeof(unsigned));
  cudaMalloc(&out, n * sizeof(unsigned));
  cudaMemcpy(in, values.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int w = 0; w < 3; ++w) {
    cudaMemset(out, 0, n * sizeof(unsigned));
    float best = -1;
    for (int r = 0; r <= (timed ? 5 : 0); ++r) {
      cudaEventRecord(start);
      sum_way(w, grid, block, in, out, rounds);
      cudaEventRecord(stop);
      finished(kSumNames[w]);
      float took = 0;
      cudaEventElapsedTime(&took, start, stop);
      if (r > 0 && (best < 0 || took < best)) best = took;
    }
    if (timed)
      ms->push_back(best);
    else
      result(std::string("warp collectives per lane: ") + kSumNames[w],
             std::to_string(kCollectivesPerRound[w] * rounds));
    const std::vector<unsigned> got = download(out, n);
    size_t good = 0;
    for (size_t t = 0; t < n / 32; ++t)
      for (size_t l = 0; l < 32; ++l) good += got[t * 32 + l] == expect[t];
    check(std::string(timed ? "timed " : "") + kSumNames[w] + ": every lane holds its tile's sum" +
              (rounds > 1 ? " after " + std::to_string(rounds) + " rounds" : ""),
          count_of(n, n) + " lanes", count_of(good, n) + " lanes", good == n);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(in);
  cudaFree(out);
}

void run_sums(dim3 grid, dim3 block, const Settings& s) {
  const unsigned seed = unsigned(s.data) + 2;
  run_sums_once(grid, block, 1, false, seed, nullptr);
  if (s.backend != "gpu") {
    std::printf(
        "[skip] hardware reduce timed against two software ways: expected a run on a GPU, "
        "got skipped: %s\n",
        s.backend == "emulator"
            ? "measured on a GPU only (the emulator's clock counts steps, not nanoseconds)"
            : "timed only when run with --backend=gpu");
    return;
  }
  cudaDeviceProp d{};
  cudaGetDeviceProperties(&d, 0);
  const dim3 big(unsigned(std::max(1, d.multiProcessorCount) * 16)), big_block(256);
  const int rounds = int(s.rounds);
  std::vector<float> ms;
  run_sums_once(big, big_block, rounds, true, seed, &ms);
  const double reductions = double(size_t(big.x) * 256 / 32) * rounds;
  for (int w = 0; w < 3; ++w)
    result(std::string("time: ") + kSumNames[w], format_float(ms[w], 4) + " ms (" +
                                                     format_float(reductions / (ms[w] * 1e6), 4) +
                                                     " billion warp reductions per second)");
  result("speed-up of the hardware reduce over the shfl_xor loop",
         format_float(ms[1] / ms[0], 3) + "x");
  result("timed launches", std::to_string(big.x) + " blocks x 256 threads, " +
                               std::to_string(rounds) + " rounds each, on " + d.name + " (cc " +
                               std::to_string(d.major) + "." + std::to_string(d.minor) + ")");
  if (d.major < 8) result("note", "below cc 8.0 there is no redux.sync: every variant shuffles");
}

int main(int argc, char** argv) {
  Settings s;
  if (const std::string wrong = parse(argc, argv, s); !wrong.empty()) {
    std::fprintf(stderr, "error: %s\n", wrong.c_str());
    return 2;
  }
  const dim3 grid(s.grid), block(s.block);
  const size_t n = size_t(s.grid) * s.block;
  std::mt19937 rng(unsigned(s.data));
  // Values 256..511 share bit 8, so bit_and keeps it and the other bitwise results vary.
  std::vector<int> values(n), counts(n);
  for (int& v : values) v = 256 + int(rng() % 256);
  for (int& c : counts) c = int(rng() % kMaxCount);
  run_reductions(grid, block, values);
  run_scans(grid, block, counts);
  run_invoke(grid, block, s.backend == "gpu");
  run_sums(grid, block, s);
  return passed ? 0 : 1;
}
