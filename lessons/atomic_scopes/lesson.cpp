// Lesson "atomic-scopes": scoped atomic_ref counters, the seed's sumReduction with fetch_add,
// and the message-passing litmus test (litmus.cpp).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include "device/coop/atomic_flags.hpp"
#include "device/trace/value.hpp"
#include "lessons/atomic_scopes/kernels.hpp"
#include "lessons/atomic_scopes/litmus.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::atomic_scopes {
namespace {

enum Part : int64_t {
  kAll = 0,
  kScopes = 1,          // scoped_counts
  kSumReduction = 2,    // the seed's sumReduction
  kRelaxed = 3,         // message passing with a relaxed flag
  kReleaseAcquire = 4,  // message passing with a release/acquire flag
  kPartCount
};

Status validate(const LaunchConfig& c, const Params& p) {
  if (Status s = require_1d_launch(c, "atomic-scopes"); !s) return s;
  if (c.mode != LaunchMode::Normal)
    return Status::error(std::string("atomic-scopes uses normal launches: got ") +
                         to_string(c.mode));
  const uint64_t pair_span = 2 * uint64_t(p.at("distance"));
  if (c.total_threads() % pair_span != 0)
    return Status::error("the litmus test pairs threads " + std::to_string(p.at("distance")) +
                         " apart, so the grid's " + std::to_string(c.total_threads()) +
                         " threads must be a multiple of " + std::to_string(pair_span));
  if (c.total_threads() > (1u << 20))
    return Status::error("atomic-scopes traces at most 1048576 threads: got " +
                         std::to_string(c.total_threads()));
  return {};
}

Status launch_kept(LessonRun& out, Status launched, Trace& trace) {
  out.launches.push_back(std::move(trace));
  return launched;
}

// [SECTION] Scopes

Status run_scopes(Executor& exec, const RunRequest& req, LessonRun& out) {
  const uint32_t blocks = req.config.grid.x, block = req.config.block.x;
  const int n = int(req.config.total_threads());
  auto per_block = DeviceArray<int>::create(exec, blocks, "per_block");
  auto grid_count = DeviceArray<int>::create(exec, 1, "grid_count");
  auto system_count = DeviceArray<int>::create(exec, 1, "system_count");
  for (Status s : {per_block.status(), grid_count.status(), system_count.status()})
    if (!s) return s;
  for (DeviceArray<int>* a : {&*per_block, &*grid_count, &*system_count})
    if (Status s = a->zero(); !s) return s;
  Trace trace;
  Status s = exec.launch(kernels().scoped_counts, req.config, trace, per_block->get(),
                         grid_count->get(), system_count->get());
  if (Status kept = launch_kept(out, s, trace); !kept) return kept;
  auto pb = per_block->download();
  auto gc = grid_count->download();
  auto sc = system_count->download();
  if (!pb) return pb.status();
  if (!gc) return gc.status();
  if (!sc) return sc.status();
  const size_t full = size_t(std::count(pb->begin(), pb->end(), int(block)));
  out.checks.push_back(make_check("scopes: each block counted its own threads at block scope",
                                  std::to_string(blocks) + " blocks at " + std::to_string(block),
                                  std::to_string(full) + " blocks at " + std::to_string(block),
                                  full == blocks));
  out.checks.push_back(make_check("scopes: the device-scope counter saw every thread",
                                  std::to_string(n), std::to_string((*gc)[0]), (*gc)[0] == n));
  out.checks.push_back(make_check("scopes: the system-scope counter saw every thread",
                                  std::to_string(n), std::to_string((*sc)[0]), (*sc)[0] == n));
  // The trace carries each atomic's scope: count them.
  uint64_t at_block = 0, at_device = 0, at_system = 0;
  for (const Event& e : out.launches.back().events) {
    if (e.kind != EventKind::Atomic) continue;
    if (e.flags & kFlagScopeBlock)
      ++at_block;
    else if (e.flags & kFlagScopeSystem)
      ++at_system;
    else
      ++at_device;
  }
  const uint64_t block_expected = uint64_t(n) + blocks;  // the adds plus thread 0's final load
  out.checks.push_back(make_check(
      "scopes: the trace records each atomic's scope",
      "block " + std::to_string(block_expected) + ", device " + std::to_string(n) + ", system " +
          std::to_string(n),
      "block " + std::to_string(at_block) + ", device " + std::to_string(at_device) + ", system " +
          std::to_string(at_system),
      at_block == block_expected && at_device == uint64_t(n) && at_system == uint64_t(n)));
  out.results.emplace_back("scopes: per-block counts (block scope, shared memory)",
                           std::to_string(full) + " of " + std::to_string(blocks) +
                               " blocks hold " + std::to_string(block));
  out.results.emplace_back("scopes: grid counter (device scope) / system counter",
                           std::to_string((*gc)[0]) + " / " + std::to_string((*sc)[0]));
  return {};
}

// [SECTION] The seed's sumReduction

Status run_sum_reduction(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int n = int(req.config.total_threads());
  std::vector<float> array(static_cast<size_t>(n));
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_real_distribution<float> value(0.5f, 1.5f);
  for (float& v : array) v = value(rng);
  auto d_array = DeviceArray<float>::create(exec, array.size(), "array");
  auto d_result = DeviceArray<float>::create(exec, 1, "result");
  if (!d_array) return d_array.status();
  if (!d_result) return d_result.status();
  if (Status s = d_array->upload(array); !s) return s;
  if (Status s = d_result->zero(); !s) return s;
  Trace trace;
  Status s = exec.launch(kernels().sum_reduction, req.config, trace, n,
                         static_cast<const float*>(d_array->get()), d_result->get());
  if (Status kept = launch_kept(out, s, trace); !kept) return kept;
  auto result = d_result->download();
  if (!result) return result.status();
  const float total = (*result)[0];
  double exact = 0, magnitude = 0;
  for (float v : array) {
    exact += v;
    magnitude += std::fabs(v);
  }
  // Float atomics land in any order and float addition is not associative: each of the n adds
  // may round by half an ulp of the running sum.
  const double bound = double(n) * std::ldexp(1.0, -24) * magnitude;
  out.checks.push_back(
      make_check("sumReduction: the total is within float rounding of the exact sum",
                 "|total - " + format_float(exact, 12) + "| <= " + format_float(bound, 3),
                 format_float(total), std::fabs(total - exact) <= bound));
  // Atomicity: sorted by the value each fetch_add found, each add found exactly the float sum
  // the previous one left behind.
  struct Landing {
    float old, operand;
    uint32_t thread;
  };
  std::vector<Landing> landings;
  for (const Event& e : out.launches.back().events)
    if (e.kind == EventKind::Atomic)
      landings.push_back({from_bits<float>(e.b), from_bits<float>(e.a), e.thread});
  std::sort(landings.begin(), landings.end(),
            [](const Landing& a, const Landing& b) { return a.old < b.old; });
  size_t breaks = 0;
  float running = 0.0f;
  for (const Landing& l : landings) {
    breaks += l.old != running;
    running = l.old + l.operand;
  }
  breaks += running != total;
  out.checks.push_back(make_check(
      "sumReduction: every fetch_add found what the previous one left",
      std::to_string(n) + " atomics, 0 breaks",
      std::to_string(landings.size()) + " atomics, " + std::to_string(breaks) + " breaks",
      landings.size() == size_t(n) && breaks == 0));
  out.results.emplace_back("sumReduction: total / exact",
                           format_float(total) + " / " + format_float(exact, 12));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int64_t part = req.params.at("part");
  if (part == kAll || part == kScopes)
    if (Status s = run_scopes(exec, req, out); !s) return s;
  if (part == kAll || part == kSumReduction)
    if (Status s = run_sum_reduction(exec, req, out); !s) return s;
  const unsigned litmus = (part == kAll || part == kRelaxed ? kRelaxedTest : 0u) |
                          (part == kAll || part == kReleaseAcquire ? kReleaseAcquireTest : 0u);
  if (litmus)
    if (Status s = run_litmus(exec, req, out, litmus); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "atomic-scopes";
  l.order = 100;
  l.title = "Atomic scopes and memory order";
  l.level = Level::Advanced;
  l.concepts = {"cuda::atomic_ref", "cuda::std::atomic_ref", "thread_scope", "fetch_add",
                "memory_order",     "release/acquire",       "litmus test"};
  l.params = {
      {"part", kAll, kAll, kPartCount - 1,
       "0: everything; 1 scoped counters, 2 the seed's sumReduction, 3 message passing with a "
       "relaxed flag, 4 the same with release/acquire"},
      {"data", 1, 0, 1 << 30, "seed of sumReduction's input values"},
      {"distance", 1, 1, 1 << 19,
       "litmus: how many threads apart a writer and its reader are (1: neighbouring lanes)", true},
      {"runs", 32, 1, 1024,
       "litmus: untraced repetitions (launches per distance; emulator: each its own schedule "
       "when seeded)"},
  };
  l.default_config.grid = {8, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::atomic_scopes
