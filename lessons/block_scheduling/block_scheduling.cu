// Block scheduling and waves: every block notes the SM it ran on and when it started and finished.
// Blocks do unequal amounts of work, so SMs free their slots at different times and the next
// blocks in line take them. An ordinary CUDA program (see the end).
#include <cooperative_groups.h>

#include <cstdint>

namespace cg = cooperative_groups;

// The SM the calling thread's block runs on (%smid). A block never moves between SMs.
__device__ unsigned this_sm_id() {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

// Nanoseconds since an arbitrary origin, the same on every SM (%globaltimer, updated about every
// 32 ns on an H200).
__device__ unsigned long long global_timer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Block b works (1 + b % 4) times `work` steps: four lengths, so slots free up unevenly.
__device__ int work_of_block(unsigned block, int work) { return int(1 + block % 4) * work; }

__global__ void timed_blocks(unsigned* block_sm, unsigned long long* block_start,
                             unsigned long long* block_end, uint32_t* sink, int work) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    block_sm[blockIdx.x] = this_sm_id();
    block_start[blockIdx.x] = global_timer_ns();
    uint32_t x = blockIdx.x;
    const int steps = work_of_block(blockIdx.x, work);
    for (int s = 0; s < steps; ++s) x = x * 1664525u + 1013904223u;  // time passes
    sink[blockIdx.x] = x;
  }
  block.sync();  // the whole block stays resident until thread 0 is done
  if (block.thread_rank() == 0) block_end[blockIdx.x] = global_timer_ns();
  block.sync();  // and until its end is read: a warp that left would free its slot early
}

// ---- The host side: `nvcc block_scheduling.cu && ./a.out` runs the lesson's default launch;
// coopviz passes --backend, --block, the parameters and --grid when one was given
// (lessons/README.md). Each block's start and finish are in coopviz's trace because lesson.json
// says "records_blocks": the program itself records nothing.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "lesson_protocol.h"

constexpr unsigned kMaxGrid = 65535;  // one slot per block of a 1D grid

struct Options {
  LessonLaunch launch;
  bool grid_given = false;  // else `waves` full waves of the device
  long work = 20000, waves = 3, smem_kb = 64;
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 0;  // 0: not given
  o.launch.block[0] = 256;
  const std::string error = parse_lesson_arguments(argc, argv, o.launch,
                                                   {{"work", 1, 10000000, &o.work},
                                                    {"waves", 1, 16, &o.waves},
                                                    {"smem_kb", 0, 227, &o.smem_kb}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  o.grid_given = grid[0] != 0;
  if (block[1] != 1 || block[2] != 1)
    return "block-scheduling uses 1D blocks: got " + dims_text(block);
  if (o.grid_given && (grid[1] != 1 || grid[2] != 1 || grid[0] > kMaxGrid))
    return "block-scheduling records one slot per block of a 1D grid of at most 65535 blocks: "
           "got grid " + dims_text(grid);
  return "";
}

// [SECTION] Schedules: measured on a GPU, modelled on the emulator

struct Placed {
  unsigned block = 0, sm = 0;
  double start = 0, end = 0;
};

// The block scheduler as a model: blocks are handed out in index order, each to the SM where a
// slot frees first (ties: the SM with the most free slots, then the lowest id), and each runs as
// long as its units of work (1 + b % 4).
std::vector<Placed> model_schedule(unsigned sms, int per_sm, unsigned blocks) {
  std::vector<std::vector<double>> free_at(sms, std::vector<double>(size_t(per_sm), 0));
  std::vector<Placed> placed;
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned best_sm = 0;
    double best_time = 1e300;
    long best_free = -1;
    for (unsigned sm = 0; sm < sms; ++sm) {
      const std::vector<double>& slots = free_at[sm];
      const double t = *std::min_element(slots.begin(), slots.end());
      if (t > best_time) continue;
      const long free_then = std::count_if(slots.begin(), slots.end(), [t](double x) { return x <= t; });
      if (t < best_time || free_then > best_free) {
        best_sm = sm;
        best_time = t;
        best_free = free_then;
      }
    }
    double& slot = *std::min_element(free_at[best_sm].begin(), free_at[best_sm].end());
    placed.push_back({b, best_sm, best_time, best_time + double(1 + b % 4)});
    slot = placed.back().end;
  }
  return placed;
}

// Most blocks whose start-to-end intervals overlap on one SM (one leaving at t and one arriving
// at t do not overlap).
int most_at_once(const std::vector<Placed>& placed) {
  std::vector<std::pair<double, int>> edges;
  int most = 0;
  std::set<unsigned> sms;
  for (const Placed& p : placed) sms.insert(p.sm);
  for (unsigned sm : sms) {
    edges.clear();
    for (const Placed& p : placed)
      if (p.sm == sm) {
        edges.emplace_back(p.start, +1);
        edges.emplace_back(p.end, -1);
      }
    std::sort(edges.begin(), edges.end());  // at equal times, departures first
    int now = 0;
    for (const auto& [t, d] : edges) most = std::max(most, now += d);
  }
  return most;
}

// Which blocks ran on SM `sm`, in order of their start: the first 12.
std::string sm_story(const std::vector<Placed>& placed, unsigned sm) {
  std::vector<Placed> here;
  for (const Placed& p : placed)
    if (p.sm == sm) here.push_back(p);
  std::sort(here.begin(), here.end(),
            [](const Placed& a, const Placed& b) { return a.start < b.start; });
  std::string text;
  for (size_t i = 0; i < here.size() && i < 12; ++i)
    text += (i ? ", " : "") + std::to_string(here[i].block) + " @" + format_fixed(here[i].start, 0);
  if (here.size() > 12) text += ", ... (" + std::to_string(here.size()) + " blocks)";
  return text.empty() ? "(none)" : text;
}

// [SECTION] The run

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

int run(const Options& o) {
  const unsigned block = o.launch.block[0];
  const int smem = int(o.smem_kb * 1024);
  bool failed = false;

  // How many blocks fit on an SM at once: CUDA's occupancy calculator, from this kernel's
  // registers and the dynamic shared memory each block asks for.
  cudaDeviceProp prop;
  int per_sm = 0;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      cudaFuncSetAttribute(timed_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
          cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, timed_blocks, int(block), smem) !=
          cudaSuccess)
    return lesson_error("cannot ask CUDA for timed_blocks' occupancy: " +
                        error_words(cudaGetLastError()));
  if (per_sm == 0)
    return lesson_error("a block of " + std::to_string(block) + " threads with " +
                        std::to_string(smem) + " bytes of dynamic shared memory does not fit on "
                        "an SM");
  const unsigned sms = unsigned(prop.multiProcessorCount);
  const unsigned long at_once = (unsigned long)per_sm * sms;
  // `waves` full waves of the device, unless a grid was given.
  const unsigned blocks = o.grid_given ? o.launch.grid[0]
                                       : unsigned(std::min<unsigned long>(at_once * o.waves, kMaxGrid));

  unsigned *block_sm, *sink;
  unsigned long long *block_start, *block_end;
  cudaMalloc(&block_sm, blocks * sizeof(unsigned));
  cudaMalloc(&block_start, blocks * sizeof(unsigned long long));
  cudaMalloc(&block_end, blocks * sizeof(unsigned long long));
  cudaMalloc(&sink, blocks * sizeof(uint32_t));
  timed_blocks<<<blocks, block, smem>>>(block_sm, block_start, block_end, sink, int(o.work));
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return lesson_error("timed_blocks: " + error_words(e));
  std::vector<unsigned> sm(blocks);
  std::vector<unsigned long long> start(blocks), end(blocks);
  cudaMemcpy(sm.data(), block_sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(start.data(), block_start, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaMemcpy(end.data(), block_end, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  for (void* p : {(void*)block_sm, (void*)block_start, (void*)block_end, (void*)sink}) cudaFree(p);

  size_t bad = 0;
  std::set<unsigned> sms_used;
  for (unsigned b = 0; b < blocks; ++b) {
    bad += start[b] > end[b] || end[b] == 0;
    sms_used.insert(sm[b]);
  }
  lesson_check(bad == 0, "every block recorded its SM, a start and a later end",
               count_of(blocks, blocks), count_of(blocks - bad, blocks), failed);
  lesson_result("launch", std::to_string(blocks) + " blocks of " + dims_text(o.launch.block) +
                              " threads, " + std::to_string(smem) +
                              " bytes of dynamic shared memory");
  lesson_result("occupancy model", std::to_string(per_sm) + " blocks per SM x " +
                                       std::to_string(sms) + " SMs = " + std::to_string(at_once) +
                                       " at once; " + format_fixed(double(blocks) / at_once, 2) +
                                       " waves");
  // The schedule coopviz shows: measured by the trace's block records on a GPU, which it checks
  // against the limit; modelled on the emulator, whose clock counts steps, and placed into the
  // trace by coopviz from the lines below.
  printf("[schedule] timed_blocks: %d blocks per SM on %u SMs\n", per_sm, sms);
  std::vector<Placed> schedule;
  if (o.launch.gpu) {
    const unsigned long long origin = *std::min_element(start.begin(), start.end());
    for (unsigned b = 0; b < blocks; ++b)
      schedule.push_back({b, sm[b], double(start[b] - origin), double(end[b] - origin)});
    const int most = most_at_once(schedule);
    lesson_check(most <= per_sm, "no SM held more blocks at once than the model allows",
                 "at most " + std::to_string(per_sm), "at most " + std::to_string(most), failed);
    lesson_check(sms_used.size() == sms, "the blocks spread over every SM",
                 std::to_string(sms) + " SMs", std::to_string(sms_used.size()) + " SMs", failed);
    double makespan = 0;
    for (const Placed& p : schedule) makespan = std::max(makespan, p.end);
    lesson_result("schedule", "measured with %smid and %globaltimer; makespan " +
                                  format_fixed(makespan / 1000.0, 1) + " us");
  } else {
    schedule = model_schedule(sms, per_sm, blocks);
    double makespan = 0;
    for (const Placed& p : schedule) {
      printf("[schedule] timed_blocks: block %u on SM %u from %.17g to %.17g\n", p.block, p.sm,
             p.start, p.end);
      makespan = std::max(makespan, p.end);
    }
    lesson_result("schedule", "modelled (the emulator does not time blocks): makespan " +
                                  format_fixed(makespan, 0) + " work units");
  }
  for (unsigned s = 0; s < std::min(2u, sms); ++s)
    lesson_result("SM " + std::to_string(s) + " ran blocks", sm_story(schedule, s));
  return failed ? 1 : 0;
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  return run(o);
}
