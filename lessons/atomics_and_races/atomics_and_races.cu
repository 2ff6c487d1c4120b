// Atomics and races: an unprotected read-add-write against atomicAdd, the order in which atomics
// land, the price of many threads on one address, a block-local sum with one atomic per block,
// and a float counter that stops counting at 2^24. An ordinary CUDA program (see the end).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// staged_sum stages one value per thread of its block.
constexpr int kMaxBlock = 1024;

// The race. Reading s[0], adding and writing back are separate steps: threads that read the same
// old value all write old + their own x, and only the last write survives. coopviz shows each
// read and write (lesson.json's shown_stores), so it can tell whose writes were overwritten.
__global__ void racy_sum(const int* x, int* s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[0] = s[0] + x[i];
}

// The same race inside one block, on a __shared__ total: each block loses updates the same way.
// (Shared memory is also where compute-sanitizer's racecheck looks: it reports this race.)
__global__ void racy_block_sum(const int* x, int* block_totals) {
  __shared__ int total;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) total = 0;
  block.sync();
  total = total + x[blockIdx.x * blockDim.x + threadIdx.x];
  block.sync();
  if (block.thread_rank() == 0) block_totals[blockIdx.x] = total;
}

// The fix. atomicAdd reads, adds and writes as one indivisible step and returns the value it
// found: what s[0] held just before this thread's add landed, i.e. the thread's place in line.
__global__ void atomic_sum(const int* x, int* s, int* before) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  before[i] = atomicAdd(&s[0], x[i]);
}

// Fewer atomics: the block first adds its own values (here the simple way, thread 0 walks the
// staged copy in shared memory), then one thread per block updates s[0]: atomically, or with
// the unprotected read-add-write that loses whole block sums.
__global__ void staged_sum(const int* x, int* s, int use_atomic) {
  __shared__ int staging[kMaxBlock];
  staging[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int local = 0;
    for (unsigned j = 0; j < blockDim.x; ++j) local = local + staging[j];
    if (use_atomic)
      atomicAdd(&s[0], local);
    else
      s[0] = s[0] + local;
  }
}

// Contention. Thread i adds 1 to counters[i % spread]. With spread 1 every thread in the grid
// queues for the same address; with a large spread the adds proceed side by side.
__global__ void spread_add(int* counters, int spread) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&counters[i % spread], 1);
}

// Counting in float. Every thread adds 1 to an unsigned counter and 1.0f to a float counter.
// A float has 24 significant bits: at 2^24 = 16777216 the next float is 16777218, so adding 1.0f
// rounds back to 16777216 and the float counter stops while the unsigned one goes on.
__global__ void count_both(float* float_count, unsigned* int_count) {
  atomicAdd(int_count, 1u);
  atomicAdd(float_count, 1.0f);
}

// ---- The host side: `nvcc atomics_and_races.cu && ./a.out` runs the lesson's default launch;
// coopviz passes --backend, --grid, --block and the parameters (lessons/README.md). The kernels
// above keep the line numbers lesson.md cites. What only the trace can tell (whose update a race
// lost, what each atomic found) the program states as [trace] and [count] lines, which coopviz
// settles on the trace of this very run.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

namespace {

// A trace keeps every shown load and store: the lesson traces launches of at most this many
// threads (lesson.json's trace_threads_max), and larger ones, the GPU's timing runs, run untraced.
constexpr size_t kMaxThreads = size_t(1) << 18;
// The GPU timing runs use a grid large enough to keep every SM busy for a measurable time.
constexpr unsigned kTimingBlocks = 4096, kTimingBlock = 256;
constexpr int kTimingRepeats = 3;

enum Part : long { kAll, kRace, kAtomic, kStaged, kStagedRace, kContention, kFloat };

struct Options {
  LessonLaunch launch;
  long part = kAll, data = 1, spread = 1, headroom = 64;
  unsigned grid = 8, block = 256;
  std::vector<int> x;       // what each thread adds: seeded integers 1..100
  int staged_launches = 0;  // staged_sum's traced launches so far
};

bool failed = false;

void check(const std::string& name, const std::string& expected, const std::string& got,
           bool pass) {
  lesson_check(pass, name, expected, got, failed);
}

std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = o.grid;
  o.launch.block[0] = o.block;
  const std::string wrong =
      parse_lesson_arguments(argc, argv, o.launch,
                             {{"part", kAll, kFloat, &o.part},
                              {"data", 0, 1 << 30, &o.data},
                              {"spread", 1, 65536, &o.spread},
                              {"headroom", 0, 1 << 20, &o.headroom}});
  if (!wrong.empty()) return wrong;
  const LessonLaunch& l = o.launch;
  if (l.grid[1] != 1 || l.grid[2] != 1 || l.block[1] != 1 || l.block[2] != 1)
    return "atomics-and-races uses 1D blocks and grids: got block " + dims_text(l.block) +
           ", grid " + dims_text(l.grid);
  o.grid = l.grid[0];
  o.block = l.block[0];
  if (o.block > unsigned(kMaxBlock))
    return "staged_sum stages at most " + std::to_string(kMaxBlock) +
           " values per block: got a block of " + std::to_string(o.block);
  const size_t threads = size_t(o.grid) * o.block;
  if (threads > kMaxThreads)
    return "atomics-and-races traces at most " + std::to_string(kMaxThreads) +
           " threads: got " + std::to_string(threads);
  return "";
}

// A launch that failed is a launch this program cannot run.
void finished(const char* kernel, cudaError_t e) {
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "error: %s: %s\n", kernel, cudaGetErrorString(e));
  std::exit(2);
}

template <class T>
void upload(T* device, const std::vector<T>& host) {
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
}

template <class T>
std::vector<T> download(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

// The values the threads add, and the sum they add them to, starting at 0: buffers named as
// the kernels name them.
void sum_buffers(const Options& o, int*& x, int*& s) {
  cudaMalloc(&x, o.x.size() * sizeof(int));
  cudaMalloc(&s, sizeof(int));
  upload(x, o.x);
  upload(s, std::vector<int>{0});
}

int64_t sum_of(const std::vector<int>& x) {
  return std::accumulate(x.begin(), x.end(), int64_t(0));
}

std::string ms(float v) { return format_float(v, 4) + " ms"; }

// The checks and results of one unprotected read-add-write of `launch` that left `final_value`
// in memory. Whose update survived is in the trace alone: each racer's load and store of the
// total, which coopviz follows back from the final value to 0 (the race's chain of reads and
// writes). Racers are threads, or with `blocks` the first thread of each block.
void report_race(const std::string& tag, const std::string& launch, int final_value,
                 int64_t exact, bool blocks) {
  const char* racer = blocks ? "block" : "thread";
  const std::string race = " in the race to " + std::to_string(final_value) + " in " + launch;
  check(tag + ": the unprotected sum never exceeds the exact sum", "<= " + std::to_string(exact),
        std::to_string(final_value), final_value <= exact);
  std::printf("[trace] %s: the trace explains the final value: expected a chain of reads and "
              "writes from 0 to %d in %s\n",
              tag.c_str(), final_value, launch.c_str());
  lesson_result(tag + ": final / exact",
                std::to_string(final_value) + " / " + std::to_string(exact));
  std::printf("[count] %s: updates lost: updates lost%s\n", tag.c_str(), race.c_str());
  std::printf("[count] %s: %ss whose update survived, in order: %ss kept%s\n", tag.c_str(), racer,
              racer, race.c_str());
  std::printf("[count] %s: overwritten before anyone read them: %ss overwritten unread%s\n",
              tag.c_str(), racer, race.c_str());
  std::printf("[count] %s: read only by %ss whose own update was lost: %ss read only by the "
              "lost%s\n",
              tag.c_str(), racer, racer, race.c_str());
}

// The GPU times what the emulator cannot: its clock counts steps.
void skipped_timing(const std::string& what) {
  lesson_skip(what, "a GPU timing", "measured on a GPU only");
}

// [SECTION] 1. The race

void run_race(const Options& o) {
  int *x, *s, *block_totals;
  sum_buffers(o, x, s);
  racy_sum<<<o.grid, o.block>>>(x, s);
  finished("racy_sum", cudaGetLastError());
  report_race("race", "racy_sum", download(s, 1)[0], sum_of(o.x), false);

  // The same race on a __shared__ total, block by block.
  cudaMalloc(&block_totals, o.grid * sizeof(int));
  upload(block_totals, std::vector<int>(o.grid, 0));
  racy_block_sum<<<o.grid, o.block>>>(x, block_totals);
  finished("racy_block_sum", cudaGetLastError());
  const std::vector<int> got = download(block_totals, o.grid);
  unsigned short_blocks = 0, impossible = 0;
  int64_t lost = 0;
  for (unsigned g = 0; g < o.grid; ++g) {
    int64_t exact = 0;
    int smallest = 100;
    for (unsigned t = 0; t < o.block; ++t) {
      exact += o.x[size_t(g) * o.block + t];
      smallest = std::min(smallest, o.x[size_t(g) * o.block + t]);
    }
    short_blocks += got[g] < exact;
    // The last write holds some thread's old + x, so at least one value survives.
    impossible += got[g] > exact || got[g] < smallest;
    lost += exact - got[g];
  }
  check("shared-memory race: every block total lies between one value and the exact sum",
        count_of(o.grid, o.grid) + " blocks", count_of(o.grid - impossible, o.grid) + " blocks",
        impossible == 0);
  lesson_result("shared-memory race: blocks that lost updates",
                count_of(short_blocks, o.grid) + " (" + std::to_string(lost) + " lost in all)");
  cudaFree(x);
  cudaFree(s);
  cudaFree(block_totals);
}

// [SECTION] 2. atomicAdd and its tickets

void run_atomic(const Options& o) {
  const size_t n = o.x.size();
  int *x, *s, *before;
  sum_buffers(o, x, s);
  cudaMalloc(&before, n * sizeof(int));
  atomic_sum<<<o.grid, o.block>>>(x, s, before);
  finished("atomic_sum", cudaGetLastError());
  const int total = download(s, 1)[0];
  const std::vector<int> tickets = download(before, n);
  cudaFree(x);
  cudaFree(s);
  cudaFree(before);
  const int64_t exact = sum_of(o.x);
  check("atomic: the sum is exact", std::to_string(exact), std::to_string(total), total == exact);
  // Sorting by the value each add found gives the landing order; atomicity means each add found
  // exactly what the previous one left.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return tickets[a] < tickets[b]; });
  size_t breaks = 0;
  int64_t running = 0;
  for (uint32_t t : order) {
    breaks += tickets[t] != running;
    running = tickets[t] + int64_t(o.x[t]);
  }
  breaks += running != total;
  check("atomic: every add found what the previous one left (the tickets chain from 0 to the sum)",
        "0 breaks", std::to_string(breaks) + " breaks", breaks == 0);
  // What each atomic found is in the trace too: the values recorded add up to those returned.
  std::printf("[trace] atomic: each recorded old value is what atomicAdd returned: expected %zu "
              "atomic whose old values sum to %lld in atomic_sum\n",
              n, (long long)sum_of(tickets));
  lesson_result("atomic: final / exact", std::to_string(total) + " / " + std::to_string(exact));
  lesson_result("atomic: threads in landing order", describe_ids(order, 12));
}

// [SECTION] 3. A block-local sum, then one atomic per block

void run_staged(Options& o) {
  int *x, *s;
  sum_buffers(o, x, s);
  staged_sum<<<o.grid, o.block>>>(x, s, 1);
  finished("staged_sum", cudaGetLastError());
  const std::string launch = "staged_sum launch " + std::to_string(++o.staged_launches);
  const int total = download(s, 1)[0];
  const int64_t exact = sum_of(o.x);
  check("staged: the sum is exact", std::to_string(exact), std::to_string(total), total == exact);
  std::printf("[trace] staged: one atomic per block: expected %u atomic in %s\n", o.grid,
              launch.c_str());
  std::printf("[count] staged: atomics issued: atomic in %s\n", launch.c_str());
  cudaFree(x);
  if (!o.launch.gpu) {
    cudaFree(s);
    skipped_timing("staged: time against one atomic per thread");
    return;
  }
  const size_t big = size_t(kTimingBlocks) * kTimingBlock;
  int *ones, *tickets;
  cudaMalloc(&ones, big * sizeof(int));
  cudaMalloc(&tickets, big * sizeof(int));
  upload(ones, std::vector<int>(big, 1));
  const float per_thread = best_launch_ms(
      kTimingRepeats, [] {},
      [&] { atomic_sum<<<kTimingBlocks, kTimingBlock>>>(ones, s, tickets); });
  const float per_block = best_launch_ms(
      kTimingRepeats, [] {}, [&] { staged_sum<<<kTimingBlocks, kTimingBlock>>>(ones, s, 1); });
  finished("staged_sum", cudaGetLastError());
  lesson_result("GPU time, " + std::to_string(big) + " values: one atomic per thread",
                ms(per_thread));
  lesson_result("GPU time, " + std::to_string(big) + " values: one atomic per block",
                ms(per_block));
  cudaFree(ones);
  cudaFree(tickets);
  cudaFree(s);
}

// [SECTION] 4. The seed's warning: the same kernel without the atomic loses whole block sums

void run_staged_race(Options& o) {
  int *x, *s;
  sum_buffers(o, x, s);
  staged_sum<<<o.grid, o.block>>>(x, s, 0);
  finished("staged_sum", cudaGetLastError());
  const std::string launch = "staged_sum launch " + std::to_string(++o.staged_launches);
  report_race("staged unprotected", launch, download(s, 1)[0], sum_of(o.x), true);
  cudaFree(x);
  cudaFree(s);
}

// [SECTION] 5. Contention

void run_contention(const Options& o) {
  const int spread = int(o.spread);
  const size_t n = o.x.size();
  int* counters;
  cudaMalloc(&counters, size_t(spread) * sizeof(int));
  cudaMemset(counters, 0, size_t(spread) * sizeof(int));
  spread_add<<<o.grid, o.block>>>(counters, spread);
  finished("spread_add", cudaGetLastError());
  const std::vector<int> got = download(counters, size_t(spread));
  cudaFree(counters);
  size_t wrong = 0;
  for (int a = 0; a < spread; ++a) {
    const size_t expect = n / size_t(spread) + (size_t(a) < n % size_t(spread) ? 1 : 0);
    wrong += size_t(got[size_t(a)]) != expect;
  }
  check("contention: every counter got one add per thread mapped to it", "0 wrong counters",
        std::to_string(wrong) + " wrong counters", wrong == 0);
  const size_t used = std::min<size_t>(size_t(spread), n);
  lesson_result("contention: atomics per address",
                "up to " + std::to_string((n + used - 1) / used) + " on each of " +
                    std::to_string(used) + (used == 1 ? " address" : " addresses"));
  if (!o.launch.gpu) {
    skipped_timing("contention: time of one address against many");
    return;
  }
  const int big = int(kTimingBlocks * kTimingBlock);
  int* wide;
  cudaMalloc(&wide, size_t(big) * sizeof(int));
  for (int spread_here : {1, 32, 1024, big}) {
    const float t = best_launch_ms(kTimingRepeats, [] {}, [&] {
      spread_add<<<kTimingBlocks, kTimingBlock>>>(wide, spread_here);
    });
    finished("spread_add", cudaGetLastError());
    lesson_result("GPU time, " + std::to_string(big) + " atomicAdds on " +
                      std::to_string(spread_here) + " address" + (spread_here > 1 ? "es" : ""),
                  ms(t));
  }
  cudaFree(wide);
}

// [SECTION] 6. A float counter at 2^24

void run_float(const Options& o) {
  const uint32_t n = uint32_t(o.x.size());
  const uint32_t limit = 1u << 24;  // 16777216: above it, consecutive floats are 2 apart
  const uint32_t start = limit - uint32_t(o.headroom);
  float* float_count;
  unsigned* int_count;
  cudaMalloc(&float_count, sizeof(float));
  cudaMalloc(&int_count, sizeof(unsigned));
  upload(float_count, std::vector<float>{float(start)});
  upload(int_count, std::vector<unsigned>{start});
  count_both<<<o.grid, o.block>>>(float_count, int_count);
  finished("count_both", cudaGetLastError());
  const float f = download(float_count, 1)[0];
  const unsigned i = download(int_count, 1)[0];
  cudaFree(float_count);
  cudaFree(int_count);
  const uint64_t exact = uint64_t(start) + n;
  const float expect_f = float(std::min<uint64_t>(exact, limit));
  check("float: the unsigned counter counts every add", std::to_string(exact), std::to_string(i),
        i == exact);
  check("float: the float counter stops at 2^24", format_float(expect_f, 10),
        format_float(f, 10), f == expect_f);
  // Every float add that found 2^24 already there left it unchanged, whatever the order; what
  // each add found is in the trace.
  const uint32_t stuck = n > limit - start ? n - (limit - start) : 0;
  std::printf("[trace] float: adds that found 16777216 and changed nothing: expected %u atomic "
              "on float_count finding 16777216 in count_both\n",
              stuck);
  lesson_result("float: counters started at", std::to_string(start));
  lesson_result("float: unsigned / float counter after " + std::to_string(n) + " adds",
                std::to_string(i) + " / " + format_float(f, 10));
  lesson_result("float: 16777216 + 1.0f", format_float(float(limit) + 1.0f, 10));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (const std::string wrong = parse(argc, argv, o); !wrong.empty()) return lesson_error(wrong);
  o.x.resize(size_t(o.grid) * o.block);
  std::mt19937 rng(uint32_t(o.data));
  std::uniform_int_distribution<int> share(1, 100);
  for (int& v : o.x) v = share(rng);
  const auto runs = [&](Part p) { return o.part == kAll || o.part == p; };
  if (runs(kRace)) run_race(o);
  if (runs(kAtomic)) run_atomic(o);
  if (runs(kStaged)) run_staged(o);
  if (runs(kStagedRace)) run_staged_race(o);
  if (runs(kContention)) run_contention(o);
  if (runs(kFloat)) run_float(o);
  return failed ? 1 : 0;
}
