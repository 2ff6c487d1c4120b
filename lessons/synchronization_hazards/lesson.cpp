// Lesson "synchronization-hazards": definition, CPU reference and checks. Variant 1 deadlocks
// and variant 2 skips a partition on purpose; both run only on the emulator, whose report becomes
// the lesson's check.
// Variant 3 leaves a barrier out: a data race, which runs on both backends and which the
// emulator's race detector finds.
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "device/trace/race_detector.hpp"
#include "device/trace/time_order.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/synchronization_hazards/kernels.hpp"

extern const char coop_source_synchronization_hazards[];

namespace coop::lessons::synchronization_hazards {
namespace {

// The half-block kernels: in, block_sums, warp_sums.
using SumKernel = decltype(Kernels::half_block_fixed);

// Source lines are found by the comments on them, so reformatting the kernel keeps them.
int line_in_kernel(std::string_view snippet) {
  return line_of(coop_source_synchronization_hazards, snippet);
}

Status validate(const LaunchConfig& c, const Params&) {
  if (c.block.y != 1 || c.block.z != 1)
    return Status::error(
        "synchronization-hazards uses 1D blocks (block_sum indexes by "
        "threadIdx.x): got block " +
        c.block.str());
  if (c.block.x % 64 != 0 || c.block.x > 1024)
    return Status::error(
        "synchronization-hazards splits each block into halves of whole warps: "
        "the block must be a multiple of 64 threads, at most 1024, got " +
        std::to_string(c.block.x));
  if (c.grid.y != 1 || c.grid.z != 1 || c.grid.x > 4096)
    return Status::error("synchronization-hazards uses a 1D grid of at most 4096 blocks: got " +
                         c.grid.str());
  return {};
}

// Per-thread random inputs from the `data` seed.
std::vector<int> make_inputs(const RunRequest& req) {
  std::vector<int> in(req.config.total_threads());
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_int_distribution<int> pick(0, 99);
  for (int& x : in) x = pick(rng);
  return in;
}

// The neighbour-reading kernels (three_spellings, missing_barrier): `in` uploaded, one launch
// recorded into `out`, and the value each thread wrote to out[].
Result<std::vector<int>> launch_in_out(Executor& exec, const Kernel<const int*, int*>& kernel,
                                       const RunRequest& req, const std::vector<int>& in,
                                       LessonRun& out) {
  auto d_in = DeviceArray<int>::create(exec, in.size(), "in");
  auto d_out = DeviceArray<int>::create(exec, in.size(), "out");
  for (Status s : {d_in.status(), d_out.status()})
    if (!s) return s;
  if (Status s = d_in->upload(in); !s) return s;
  Trace trace;
  const Status launched = exec.launch(kernel, req.config, trace, d_in->get(), d_out->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  return d_out->download();
}

// [SECTION] The safe variant: one barrier three ways, and the group-parameter fix.

Status run_three_spellings(Executor& exec, const RunRequest& req, const std::vector<int>& in,
                           LessonRun& out) {
  const size_t threads = in.size(), n = req.config.block.x;
  auto got = launch_in_out(exec, kernels().three_spellings, req, in, out);
  if (!got) return got.status();
  auto want = [&](size_t i) { return in[i / n * n + (i % n + 2) % n]; };
  out.checks.push_back(all_of(
      "each thread read the value two places to its right (both barriers held)", threads,
      [&](size_t i) { return (*got)[i] == want(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " read " + std::to_string((*got)[i]) +
               ", expected " + std::to_string(want(i));
      }));

  // The three spellings are one barrier: phases 1, 2, 3 of the block, on their three lines.
  const Trace& t = out.launches.back();
  const int lines[3] = {line_in_kernel("// the group's own barrier"),
                        line_in_kernel("// the same barrier, spelled the classic way"),
                        line_in_kernel("// and once more, as the free function")};
  std::vector<int> seen(threads, 0);
  size_t right = 0, barriers = 0;
  for (const Event& e : t.events) {
    if (e.kind != EventKind::Barrier) continue;
    ++barriers;
    const int k = seen[e.thread]++;
    right += k < 3 && e.group_kind == GroupKind::Block && e.group_size == n &&
             e.extra == uint32_t(k + 1) && e.line == lines[k];
  }
  out.checks.push_back(make_check(
      "sync(), __syncthreads() and cg::sync() are phases 1, 2, 3 of the same block barrier",
      std::to_string(3 * threads) + " block barriers in order",
      std::to_string(right) + " of " + std::to_string(barriers),
      right == 3 * threads && barriers == 3 * threads));
  // The barrier's promise, read off the recorded times: exact on the emulator's clock, and on a
  // GPU from %globaltimer (departures are read once the barrier let the thread go).
  const TimeOrderReport order = check_time_order(t);
  const std::string phases = std::to_string(order.instances - order.early_departures) + " of " +
                             std::to_string(order.instances) + " barrier phases";
  out.checks.push_back(make_check(
      "sync(), __syncthreads() and cg::sync(): no thread left before the last thread of its "
      "block arrived",
      std::to_string(order.instances) + " of " + std::to_string(order.instances) +
          " barrier phases",
      order.early_departures == 0 ? phases : phases + " (first: " + order.first_early + ")",
      order.early_departures == 0 && order.instances == 3 * req.config.grid.x));
  return {};
}

Status run_fixed(Executor& exec, const RunRequest& req, const std::vector<int>& in,
                 LessonRun& out) {
  const size_t threads = in.size(), n = req.config.block.x, blocks = req.config.grid.x;
  auto d_in = DeviceArray<int>::create(exec, threads, "in");
  auto d_block = DeviceArray<int>::create(exec, blocks, "block_sums");
  auto d_warp = DeviceArray<int>::create(exec, threads, "warp_sums");
  for (Status s : {d_in.status(), d_block.status(), d_warp.status()})
    if (!s) return s;
  if (Status s = d_in->upload(in); !s) return s;
  if (Status s = d_warp->upload(std::vector<int>(threads, -1)); !s) return s;  // "not written"
  if (Status s = d_block->zero(); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().half_block_fixed, req.config, trace, d_in->get(),
                                d_block->get(), d_warp->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto block_sums = d_block->download();
  auto warp_sums = d_warp->download();
  if (!block_sums) return block_sums.status();
  if (!warp_sums) return warp_sums.status();

  auto sum = [&](size_t first, size_t count) {
    int s = 0;
    for (size_t k = first; k < first + count; ++k) s += in[k];
    return s;
  };
  out.checks.push_back(all_of(
      "group_sum(block, ...) called by every thread: each block's sum", blocks,
      [&](size_t b) { return (*block_sums)[b] == sum(b * n, n); },
      [&](size_t b) {
        return "block " + std::to_string(b) + " got " + std::to_string((*block_sums)[b]) +
               ", expected " + std::to_string(sum(b * n, n));
      }));
  // Lower half: its warp's sum; upper half: untouched (-1), since it never called group_sum.
  auto want = [&](size_t i) { return i % n < n / 2 ? sum(i / 32 * 32, 32) : -1; };
  out.checks.push_back(all_of(
      "group_sum(warp, ...) called by the lower half only: whole warps, no deadlock", threads,
      [&](size_t i) { return (*warp_sums)[i] == want(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " got " + std::to_string((*warp_sums)[i]) +
               ", expected " + std::to_string(want(i));
      }));
  out.results.emplace_back("block 0 sum", std::to_string((*block_sums)[0]));
  out.results.emplace_back("warp 0 sum", std::to_string((*warp_sums)[0]));
  return {};
}

// [SECTION] The hazard variants: emulator only, its report is the result.

Status run_hazard(Executor& exec, const RunRequest& req, const std::vector<int>& in, int variant,
                  LessonRun& out) {
  const SumKernel& kernel =
      variant == 1 ? kernels().half_block_deadlock : kernels().partition_in_branch;
  const std::string what = variant == 1 ? "__syncthreads()" : "tiled_partition()";
  const int line = variant == 1 ? line_in_kernel("// the whole block, whoever called")
                                : line_in_kernel("// too late: half are gone");
  const std::string name = variant == 1 ? "variant 1 (library sum called by half a block)"
                                        : "variant 2 (partition inside a branch)";
  if (Status s =
          refuse_hazard_on_gpu(exec, name, variant == 1 ? "deadlocks" : "breaks CUDA's rules");
      !s)
    return s;

  const size_t threads = in.size(), n = req.config.block.x;
  auto d_in = DeviceArray<int>::create(exec, threads, "in");
  auto d_block = DeviceArray<int>::create(exec, req.config.grid.x, "block_sums");
  auto d_warp = DeviceArray<int>::create(exec, threads, "warp_sums");
  for (Status s : {d_in.status(), d_block.status(), d_warp.status()})
    if (!s) return s;
  if (Status s = d_in->upload(in); !s) return s;
  Trace trace;
  const Status launched =
      exec.launch(kernel, req.config, trace, d_in->get(), d_block->get(), d_warp->get());
  out.launches.push_back(std::move(trace));  // the partial trace: what happened up to the hang

  // What a program sees of it: an error code, CUDA's words for any failed launch; the report's
  // own words are on the emulator's stderr, its stuck threads in the trace.
  out.checks.push_back(make_check("the emulator stopped the launch", "an error",
                                  launched.ok() ? "the launch completed"
                                                : "cudaErrorLaunchFailure (unspecified launch failure)",
                                  !launched.ok()));
  const std::string half = std::to_string(n / 2), at = " at line " + std::to_string(line);
  if (variant == 1)
    out.checks.push_back(hazard_reported(
        "the emulator reported the deadlock" + at + " with " + thread_range(n / 2, n - 1) +
            " missing",
        launched,
        {"deadlock", what + at,
         half + " of " + std::to_string(n) + " threads arrived (" + thread_range(0, n / 2 - 1),
         half + " exited without arriving (" + thread_range(n / 2, n - 1)}));
  else  // making a tile is no barrier: the block finishes, then the skip is reported
    out.checks.push_back(hazard_reported(
        "the emulator reported the partition" + at + " skipped by " + thread_range(n / 2, n - 1),
        launched,
        {what + at, thread_range(n / 2, n - 1) + " of block", "skipped it",
         thread_range(0, n / 2 - 1) + " of block"}));
  return {};
}

// [SECTION] Variant 3: a barrier left out, a data race on both backends.

// "write line 17" for one side of a race.
std::string access_text(const RaceAccess& a) {
  return std::string(to_string(a.kind)) + " line " + std::to_string(a.line);
}

// The detector's verdict on missing_barrier: one race, between the write and the read, and
// nothing else (the barrier after the -1 orders that store). Either may come first in the trace:
// a read before its neighbour's write, or after it.
Check race_found(const Executor& exec, const Trace& trace) {
  const std::string write = "write line " + std::to_string(line_in_kernel("// the write"));
  const std::string read = "read line " + std::to_string(line_in_kernel("// the read: no barrier"));
  const std::string name =
      "the race detector pairs the " + write + " with the " + read + ", and finds no other race";
  const std::string expected = "1 race: " + write + ", " + read;
  if (exec.backend() != Backend::Emu) {
    Check c = make_check(name, expected,
                         "skipped: races are found on the emulator only (a GPU records neither "
                         "every load and store nor the order they happened in)",
                         false);
    c.skipped = true;
    return c;
  }
  const std::vector<Race> races = find_races(trace);
  std::string got = std::to_string(races.size()) + (races.size() == 1 ? " race" : " races");
  for (size_t i = 0; i < races.size(); ++i)
    got += (i ? "; " : ": ") + access_text(races[i].first) + ", " + access_text(races[i].second);
  const bool pair =
      races.size() == 1 &&
      ((access_text(races[0].first) == write && access_text(races[0].second) == read) ||
       (access_text(races[0].first) == read && access_text(races[0].second) == write));
  return make_check(name, expected, got, pair);
}

Status run_missing_barrier(Executor& exec, const RunRequest& req, const std::vector<int>& in,
                           LessonRun& out) {
  // The race is the point: the emulator records every load and store for its detector
  // (run_lesson puts the option back after the run).
  if (exec.backend() == Backend::Emu) exec.options().record_memory = true;
  const size_t threads = in.size(), n = req.config.block.x;
  auto got = launch_in_out(exec, kernels().missing_barrier, req, in, out);
  if (!got) return got.status();
  // Inputs are 0 to 99, so -1 can only be the mark of a slot not yet written.
  auto right = [&](size_t i) { return in[i / n * n + (i % n + 1) % n]; };
  out.checks.push_back(all_of(
      "each thread read its right neighbour's slot: the neighbour's value, or -1 where the read "
      "came before the neighbour's write",
      threads, [&](size_t i) { return (*got)[i] == right(i) || (*got)[i] == -1; },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " read " + std::to_string((*got)[i]) +
               ", its neighbour's value is " + std::to_string(right(i));
      }));
  out.checks.push_back(race_found(exec, out.launches.back()));
  std::string early;
  size_t too_early = 0;
  for (size_t i = 0; i < threads; ++i) {
    if ((*got)[i] != -1) continue;
    if (++too_early <= 8) early += (too_early > 1 ? ", " : " (threads ") + std::to_string(i);
  }
  if (too_early > 0) early += too_early > 8 ? ", ...)" : ")";
  out.results.emplace_back("threads that read -1 (before the neighbour wrote)",
                           std::to_string(too_early) + " of " + std::to_string(threads) + early);
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int variant = int(req.params.at("variant"));
  const std::vector<int> in = make_inputs(req);
  if (variant == 3) return run_missing_barrier(exec, req, in, out);
  if (variant != 0) return run_hazard(exec, req, in, variant, out);
  if (Status s = run_three_spellings(exec, req, in, out); !s) return s;
  if (Status s = run_fixed(exec, req, in, out); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "synchronization-hazards";
  l.order = 40;
  l.title = "Synchronization and its hazards";
  l.level = Level::Intermediate;
  l.concepts = {"sync",      "__syncthreads",         "barrier guarantees",  "deadlock",
                "data race", "collective operations", "group as a parameter"};
  l.params = {
      {"variant", 0, 0, 3,
       "0: safe (one barrier three ways, and the group-parameter fix); 1: a block-wide library "
       "called by half a block (deadlock, emulator only); 2: a partition made inside a branch "
       "(reported when the block ends, emulator only); 3: the first barrier of three_spellings "
       "left out (a data race, which only the emulator's detector sees)"},
      {"data", 1, 0, 1 << 30, "seed of the random input values"},
  };
  // Which reads of missing_barrier come before their neighbour's write is the race itself: the
  // backends legally differ.
  l.incomparable_kernels = {"missing_barrier"};
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::synchronization_hazards
