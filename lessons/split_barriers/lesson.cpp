// Lesson "split-barriers": definition, CPU reference and checks. Variant 1 needs clusters
// (compute capability 9.0 on a GPU); variants 2 and 3 are the guide's two hazards and run only
// on the emulator.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/split_barriers/kernels.hpp"

extern const char coop_source_split_barriers[];

namespace coop::lessons::split_barriers {
namespace {

// All four kernels: in, out, produced, local.
using SplitKernel = decltype(Kernels::block_split);

enum Variant { kBlock = 0, kCluster = 1, kCollectiveInside = 2, kReuseAfterWait = 3 };

int line_in_kernel(std::string_view snippet) {
  return line_of(coop_source_split_barriers, snippet);
}

int collatz_steps(int x) {
  int steps = 0;
  for (; x != 1; ++steps) x = x % 2 ? 3 * x + 1 : x / 2;
  return steps;
}

Status validate(const LaunchConfig& c, const Params& p) {
  if (c.grid.y != 1 || c.grid.z != 1 || c.grid.x > 4096)
    return Status::error("split-barriers uses a 1D grid of at most 4096 blocks: got " +
                         c.grid.str());
  if (c.block.count() > 1024)
    return Status::error(
        "split-barriers publishes one int per thread in a 1024-int shared "
        "array: block " +
        c.block.str() + " has " + std::to_string(c.block.count()) + " threads");
  const int64_t cluster = p.at("cluster");
  if (p.at("variant") == kCluster && c.grid.x % cluster != 0)
    return Status::error("the cluster variant groups the grid's blocks in clusters of " +
                         std::to_string(cluster) + ": grid " + c.grid.str() +
                         " is not a multiple of " + std::to_string(cluster));
  return {};
}

// Where a thread's barrier events stand in time, per group instance (block or cluster).
struct PhaseWindow {
  uint64_t last_arrival = 0;
  uint64_t first_departure = ~0ull;
};

// For every block (or cluster): was every barrier_wait left only after the last barrier_arrive?
Check waits_after_all_arrivals(const Trace& t, const char* group) {
  std::map<uint32_t, PhaseWindow> windows;
  for (const Event& e : t.events) {
    if (e.kind == EventKind::BarrierArrive)
      windows[e.group_id].last_arrival = std::max(windows[e.group_id].last_arrival, e.time);
    if (e.kind == EventKind::BarrierWait)
      windows[e.group_id].first_departure = std::min(windows[e.group_id].first_departure, e.b);
  }
  size_t held = 0;
  for (const auto& [id, w] : windows) held += w.last_arrival <= w.first_departure;
  return make_check(std::string("no thread left barrier_wait before the last thread of its ") +
                        group + " called barrier_arrive",
                    std::to_string(windows.size()) + " of " + std::to_string(windows.size()),
                    std::to_string(held) + " of " + std::to_string(windows.size()),
                    held == windows.size() && !windows.empty());
}

// Per thread, the order the trace shows: arrive, local work (its stores), then wait.
Check work_between_arrive_and_wait(const Trace& t, size_t threads) {
  std::vector<int> stage(threads, 0);  // 1 after arrive, 2 after a local store, 3 after wait
  for (const Event& e : t.events) {
    int& s = stage[e.thread];
    if (e.kind == EventKind::BarrierArrive && s == 0)
      s = 1;
    else if (e.kind == EventKind::Store && s == 1)
      s = 2;
    else if (e.kind == EventKind::BarrierWait && s == 2)
      s = 3;
  }
  return all_of(
      "each thread's local work lies between its barrier_arrive and its barrier_wait", threads,
      [&](size_t i) { return stage[i] == 3; },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " stopped at stage " + std::to_string(stage[i]);
      });
}

struct Buffers {
  DeviceArray<int> in, out, produced, local;
};

// Allocates the kernels' four arrays, launches `kernel` once and keeps its trace in `out`.
// `launched` is the launch's own status (for a hazard, the emulator's report), apart from setup
// failures.
Result<Buffers> launch_once(Executor& exec, const SplitKernel& kernel, const LaunchConfig& c,
                            const std::vector<int>& in, LessonRun& out, Status& launched) {
  auto d_in = DeviceArray<int>::create(exec, in.size(), "in");
  auto d_out = DeviceArray<int>::create(exec, in.size(), "out");
  auto d_produced = DeviceArray<int>::create(exec, in.size(), "produced");
  auto d_local = DeviceArray<int>::create(exec, in.size(), "local");
  for (Status s : {d_in.status(), d_out.status(), d_produced.status(), d_local.status()})
    if (!s) return s;
  if (Status s = d_in->upload(in); !s) return s;
  for (DeviceArray<int>* a : {&*d_out, &*d_produced, &*d_local})
    if (Status s = a->zero(); !s) return s;
  Trace trace;
  launched =
      exec.launch(kernel, c, trace, d_in->get(), d_out->get(), d_produced->get(), d_local->get());
  out.launches.push_back(std::move(trace));
  return Buffers{std::move(*d_in), std::move(*d_out), std::move(*d_produced), std::move(*d_local)};
}

// [SECTION] Variants 0 and 1: a split barrier used correctly, for a block or a cluster.

Status run_correct(Executor& exec, const RunRequest& req, const std::vector<int>& in, bool cluster,
                   LessonRun& out) {
  LaunchConfig c = req.config;
  const uint32_t per_cluster = cluster ? uint32_t(req.params.at("cluster")) : 1;
  if (cluster) {
    const DeviceProps& d = exec.device();
    if (exec.backend() == Backend::Gpu && d.cc_major < 9)
      return Status::error(
          "the cluster variant needs thread block clusters, compute capability "
          "9.0 or newer; " +
          d.name + " is " + d.cc_string() + " (run it with --backend emu, or use variant 0)");
    c.mode = LaunchMode::Cluster;
    c.cluster = {per_cluster, 1, 1};
  }
  Status launched;
  auto b = launch_once(exec, cluster ? kernels().cluster_split : kernels().block_split, c, in, out,
                       launched);
  if (!b) return b.status();
  if (!launched) return launched;
  auto got = b->out.download();
  auto produced = b->produced.download();
  auto local = b->local.download();
  for (Status s : {got.status(), produced.status(), local.status()})
    if (!s) return s;

  const size_t threads = in.size(), n = c.block.count();
  // Block variant: the next thread's part. Cluster variant: the same thread of the next block.
  auto neighbour = [&](size_t i) {
    if (!cluster) return i / n * n + (i % n + 1) % n;
    const size_t block = i / n, first = block / per_cluster * per_cluster;
    return (first + (block - first + 1) % per_cluster) * n + i % n;
  };
  auto want = [&](size_t i) { return collatz_steps(in[neighbour(i)]); };
  out.checks.push_back(all_of(
      cluster ? "after the cluster wait, each thread read the next block's published value"
              : "after the wait, each thread read its neighbour's published value",
      threads, [&](size_t i) { return (*got)[i] == want(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " read " + std::to_string((*got)[i]) +
               ", expected " + std::to_string(want(i));
      }));
  auto both_counts = [&](size_t i) {
    return (*produced)[i] == collatz_steps(in[i]) && (*local)[i] == collatz_steps(int(i % n) + 2);
  };
  out.checks.push_back(
      all_of("each thread's part (Collatz steps of its value) and its local work (of rank + 2)",
             threads, both_counts, [&](size_t i) {
               return "thread " + std::to_string(i) + " counted " + std::to_string((*produced)[i]) +
                      " and " + std::to_string((*local)[i]) + ", expected " +
                      std::to_string(collatz_steps(in[i])) + " and " +
                      std::to_string(collatz_steps(int(i % n) + 2));
             }));
  const Trace& t = out.launches.back();
  out.checks.push_back(waits_after_all_arrivals(t, cluster ? "cluster" : "block"));
  out.checks.push_back(work_between_arrive_and_wait(t, threads));
  out.checks.push_back(nothing_dropped(out.launches));
  const auto [lo, hi] = std::minmax_element(produced->begin(), produced->end());
  out.results.emplace_back("work before arriving",
                           std::to_string(*lo) + " to " + std::to_string(*hi) + " Collatz steps");
  // Threads whose own work outlasted everyone's arrival found the barrier already open.
  const size_t open = count_events(
      t, [](const Event& e) { return e.kind == EventKind::BarrierWait && e.b <= e.time; });
  out.results.emplace_back("barrier_wait calls that found the barrier already open",
                           std::to_string(open));
  if (cluster) out.results.emplace_back("blocks per cluster", std::to_string(per_cluster));
  return {};
}

// [SECTION] Variants 2 and 3: the guide's two hazards, on the emulator only.

Status run_collective_inside(Executor& exec, const RunRequest& req, const std::vector<int>& in,
                             LessonRun& out) {
  if (Status s = refuse_hazard_on_gpu(exec, "variant 2 (a sync() between arrive and wait)",
                                      "misuses the split barrier");
      !s)
    return s;
  Status launched;
  auto b = launch_once(exec, kernels().sync_inside_split, req.config, in, out, launched);
  if (!b) return b.status();
  const int line = line_in_kernel("// not allowed: this block's split barrier is still open");
  // What a program sees of it: an error code, CUDA's words for any failed launch; the report's
  // own words are on the emulator's stderr, the stopped thread in the trace.
  out.checks.push_back(make_check("the emulator stopped the launch", "an error",
                                  launched.ok() ? "the launch completed"
                                                : "cudaErrorLaunchFailure (unspecified launch failure)",
                                  !launched.ok()));
  out.checks.push_back(
      hazard_reported("the emulator stopped the sync() at line " + std::to_string(line) +
                          " between barrier_arrive and barrier_wait",
                      launched,
                      {"line " + std::to_string(line),
                       "sync() on a group between its barrier_arrive and barrier_wait"}));
  return {};
}

Status run_reuse_after_wait(Executor& exec, const RunRequest& req, const std::vector<int>& in,
                            LessonRun& out) {
  if (Status s = refuse_hazard_on_gpu(exec, "variant 3 (reusing a slot right after the wait)",
                                      "reads a value that was already overwritten");
      !s)
    return s;
  Status launched;
  auto b = launch_once(exec, kernels().reuse_after_wait, req.config, in, out, launched);
  if (!b) return b.status();
  if (!launched) return launched;
  auto got = b->out.download();
  auto spins = b->local.download();
  if (!got) return got.status();
  if (!spins) return spins.status();
  const size_t n = req.config.block.count(), blocks = req.config.grid.x;

  // The trace shows the slow thread entering barrier_wait after all others had left it.
  const Trace& t = out.launches.back();
  std::vector<uint64_t> slow_enters(blocks, 0);
  for (const Event& e : t.events)
    if (e.kind == EventKind::BarrierWait && e.thread % n == n - 1)
      slow_enters[e.thread / n] = e.time;
  std::vector<size_t> left_before(blocks, 0);
  for (const Event& e : t.events)
    if (e.kind == EventKind::BarrierWait && e.thread % n != n - 1 &&
        e.b < slow_enters[e.thread / n])
      ++left_before[e.thread / n];
  out.checks.push_back(all_of(
      "barrier_wait returned for all " + std::to_string(n - 1) +
          " other threads before the last thread even called it",
      blocks, [&](size_t blk) { return left_before[blk] == n - 1; },
      [&](size_t blk) {
        return "block " + std::to_string(blk) + ": " + std::to_string(left_before[blk]) +
               " left before";
      }));
  // What that costs: the last thread reads slot 0 after thread 0 refilled it for the next round.
  out.checks.push_back(all_of(
      "so the last thread of each block read the next round's value (-x) from slot 0", blocks,
      [&](size_t blk) { return (*got)[blk * n + n - 1] == -in[blk * n]; },
      [&](size_t blk) {
        return "block " + std::to_string(blk) + ": read " +
               std::to_string((*got)[blk * n + n - 1]) + ", the overwritten value is " +
               std::to_string(-in[blk * n]);
      }));
  out.results.emplace_back(
      "slow thread of block 0 read",
      std::to_string((*got)[n - 1]) + " (published: " + std::to_string(in[0]) + ")");
  out.results.emplace_back("spin-loop rounds of the slow thread of block 0",
                           std::to_string((*spins)[n - 1]));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  std::vector<int> in(req.config.total_threads());
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_int_distribution<int> pick(1, 999);
  for (int& x : in) x = pick(rng);
  switch (int(req.params.at("variant"))) {
    case kCluster:
      return run_correct(exec, req, in, true, out);
    case kCollectiveInside:
      return run_collective_inside(exec, req, in, out);
    case kReuseAfterWait:
      return run_reuse_after_wait(exec, req, in, out);
    default:
      return run_correct(exec, req, in, false, out);
  }
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "split-barriers";
  l.order = 50;
  l.title = "Split barriers: arrive, work, wait";
  l.level = Level::Intermediate;
  l.concepts = {"barrier_arrive",  "barrier_wait",   "arrival_token",        "this_cluster",
                "map_shared_rank", "latency hiding", "split-barrier hazards"};
  l.params = {
      {"variant", kBlock, 0, 3,
       "0: block split barrier; 1: cluster split barrier (sm_90+ on a GPU); 2: a sync() between "
       "arrive and wait (emulator only); 3: reusing a slot right after the wait (emulator only)"},
      {"cluster", 2, 2, 8, "blocks per cluster in variant 1 (the grid must be a multiple)"},
      {"data", 1, 0, 1 << 30,
       "seed of the random values (1 to 999) whose Collatz steps the threads publish"},
  };
  l.default_config.grid = {4, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::split_barriers
