// Lesson "divergence-and-coalesced": coalesced_threads() inside a divergent branch, its ranks,
// and warp-aggregated atomics against one atomic per thread. CPU reference and checks.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "lessons/divergence_and_coalesced/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::divergence_and_coalesced {
namespace {

// [SECTION] Inputs and launch rules

// Results per thread in branch_ranks, as divergence_and_coalesced.cuh lays them out (the kernel
// file is not host code; the lesson test checks that this matches its text).
constexpr int kSlots = 3;

// pattern 0: random values 0..99; 1: odd lanes below `keep`, even lanes at or above it.
std::vector<int> make_values(size_t n, int keep, int64_t pattern, uint32_t seed) {
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

Status validate(const LaunchConfig& c, const Params& p) {
  if (Status s = require_1d_launch(c, "divergence-and-coalesced"); !s) return s;
  if (c.block.x % 32 != 0)
    return Status::error("divergence-and-coalesced works on whole warps: block size " +
                         std::to_string(c.block.x) + " is not a multiple of 32");
  if (c.grid.x > 1024)
    return Status::error(
        "divergence-and-coalesced allows at most 1024 blocks in its traced runs: got " +
        std::to_string(c.grid.x));
  if (p.at("pattern") == 1 && (p.at("keep") < 1 || p.at("keep") > 99))
    return Status::error(
        "pattern 1 (odd lanes) needs 1 <= keep <= 99 so both halves have values: got keep = " +
        std::to_string(p.at("keep")));
  return {};
}

// [SECTION] The group inside the branch

Status run_ranks(Executor& exec, const RunRequest& req, const std::vector<int>& values, int keep,
                 LessonRun& out) {
  const size_t n = values.size();
  auto d_in = upload_array(exec, values, "in");
  auto d_out = upload_array(exec, std::vector<int>(n * kSlots, -1), "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  Trace trace;
  Status launched =
      exec.launch(kernels().branch_ranks, req.config, trace, d_in->get(), keep, d_out->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto got = d_out->download();
  if (!got) return got.status();

  // Who entered the branch is fixed by the data; how the hardware grouped them is not, so the
  // groups are rebuilt from what each thread reported: (warp, lane of its rank 0).
  size_t right_entry = 0, warps_in_branch = 0;
  std::map<std::pair<size_t, int>, std::vector<size_t>> groups;  // members, in lane order
  for (size_t i = 0; i < n; ++i) {
    const bool entered = (*got)[i * kSlots] != -1;
    right_entry += entered == (values[i] < keep);
    if (entered) groups[{i / 32, (*got)[i * kSlots + 2]}].push_back(i);
  }
  for (size_t w = 0; w < n / 32; ++w)
    warps_in_branch +=
        std::any_of(values.begin() + long(w * 32), values.begin() + long(w * 32 + 32),
                    [&](int v) { return v < keep; });
  size_t good_groups = 0;
  for (const auto& [key, members] : groups) {
    bool good = int(members.front() % 32) == key.second;  // rank 0 is the lowest lane
    for (size_t r = 0; r < members.size(); ++r) {
      good &= (*got)[members[r] * kSlots] == int(r);
      good &= (*got)[members[r] * kSlots + 1] == int(members.size());
    }
    good_groups += good;
  }
  out.checks.push_back(make_check(
      "exactly the threads whose value is below keep entered the branch",
      count_of(n, n) + " threads", count_of(right_entry, n) + " threads", right_entry == n));
  out.checks.push_back(make_check("each coalesced group ranks its members 0..size-1 in lane order",
                                  count_of(groups.size(), groups.size()) + " groups",
                                  count_of(good_groups, groups.size()) + " groups",
                                  good_groups == groups.size()));
  std::string ranks;
  for (size_t l = 0; l < 32 && l < n; ++l)
    ranks += (l ? " " : "") +
             ((*got)[l * kSlots] < 0 ? std::string(".") : std::to_string((*got)[l * kSlots]));
  out.results.emplace_back("warp 0 ranks inside the branch (. stayed out)", ranks);
  out.results.emplace_back("coalesced groups formed", std::to_string(groups.size()) + " (in " +
                                                          std::to_string(warps_in_branch) +
                                                          " warps with threads in the branch)");
  return {};
}

// [SECTION] Warp-aggregated atomics

struct Kept {
  int count = 0;
  std::vector<int> values;
};

Result<Kept> download_kept(const DeviceArray<int>& count, const DeviceArray<int>& kept) {
  auto c = count.download();
  auto k = kept.download();
  if (!c) return c.status();
  if (!k) return k.status();
  Kept r;
  r.count = (*c)[0];
  const size_t used = size_t(std::clamp(r.count, 0, int(k->size())));
  r.values.assign(k->begin(), k->begin() + long(used));
  std::sort(r.values.begin(), r.values.end());
  return r;
}

void check_kept(const std::string& name, const Kept& got, const std::vector<int>& expect,
                LessonRun& out) {
  out.checks.push_back(make_check(name + ": the counter equals the number of values kept",
                                  std::to_string(expect.size()), std::to_string(got.count),
                                  got.count == int(expect.size())));
  out.checks.push_back(
      make_check(name + ": the kept values are exactly those below keep (any order)",
                 std::to_string(expect.size()) + " values, sorted equal",
                 got.values == expect ? "equal" : "different", got.values == expect));
}

// Both compactions traced at the lesson's launch: atomics counted from the traces.
Status run_compactions(Executor& exec, const RunRequest& req, const std::vector<int>& values,
                       int keep, const std::vector<int>& expect, LessonRun& out) {
  const size_t n = values.size();
  auto d_in = upload_array(exec, values, "in");
  auto d_count = zero_array<int>(exec, 1, "count");
  auto d_kept = upload_array(exec, std::vector<int>(n, -1), "kept");
  if (Status s = first_error({d_in.status(), d_count.status(), d_kept.status()}); !s) return s;
  const Kernels& k = kernels();
  size_t atomics[2] = {0, 0}, groups = 0;
  for (int way = 0; way < 2; ++way) {
    if (Status s = d_count->zero(); !s) return s;
    Trace trace;
    Status launched = exec.launch(way == 0 ? k.keep_per_thread : k.keep_aggregated, req.config,
                                  trace, d_in->get(), keep, d_count->get(), d_kept->get());
    atomics[way] = count_events(trace, EventKind::Atomic);
    if (way == 1)
      for (const Event& e : trace.events)
        groups +=
            e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Coalesced && e.rank == 0;
    out.launches.push_back(std::move(trace));
    if (!launched) return launched;
    auto kept = download_kept(*d_count, *d_kept);
    if (!kept) return kept.status();
    check_kept(way == 0 ? "one atomic per thread" : "warp-aggregated", *kept, expect, out);
  }
  out.checks.push_back(make_check(
      "one atomic per thread: the trace holds one atomic per kept value",
      std::to_string(expect.size()), std::to_string(atomics[0]), atomics[0] == expect.size()));
  out.checks.push_back(make_check("warp-aggregated: the trace holds one atomic per coalesced group",
                                  std::to_string(groups), std::to_string(atomics[1]),
                                  atomics[1] == groups));
  out.results.emplace_back("atomics issued, one per thread", std::to_string(atomics[0]));
  out.results.emplace_back("atomics issued, warp-aggregated", std::to_string(atomics[1]));
  if (atomics[1] > 0)
    out.results.emplace_back("fewer atomics",
                             format_float(double(atomics[0]) / double(atomics[1]), 3) + "x");
  return {};
}

// GPU only: both compactions over a large array, untraced and timed.
Status time_compactions(Executor& exec, const RunRequest& req, int keep, LessonRun& out) {
  const size_t n = size_t(1) << req.params.at("timing_log2");
  const std::vector<int> values =
      make_values(n, keep, req.params.at("pattern"), uint32_t(req.params.at("data")) + 1);
  std::vector<int> expect;
  for (int v : values)
    if (v < keep) expect.push_back(v);
  std::sort(expect.begin(), expect.end());
  LaunchConfig big = req.config;
  big.block.x = 256;
  big.grid.x = uint32_t(n / 256);
  auto d_in = upload_array(exec, values, "in");
  auto d_count = zero_array<int>(exec, 1, "count");
  auto d_kept = zero_array<int>(exec, n, "kept");
  if (Status s = first_error({d_in.status(), d_count.status(), d_kept.status()}); !s) return s;
  const Kernels& k = kernels();
  double ms[2] = {0, 0};
  for (int way = 0; way < 2; ++way) {
    auto best = best_untraced_ms_with(
        exec, [&] { return d_count->zero(); }, way == 0 ? k.keep_per_thread : k.keep_aggregated,
        big, 5, static_cast<const int*>(d_in->get()), keep, d_count->get(), d_kept->get());
    if (!best) return best.status();
    ms[way] = *best;
    auto kept = download_kept(*d_count, *d_kept);
    if (!kept) return kept.status();
    check_kept(way == 0 ? "timed, one atomic per thread" : "timed, warp-aggregated", *kept, expect,
               out);
  }
  out.results.emplace_back("time, one atomic per thread", format_float(ms[0], 4) + " ms");
  out.results.emplace_back("time, warp-aggregated", format_float(ms[1], 4) + " ms");
  out.results.emplace_back("speed-up of aggregation", format_float(ms[0] / ms[1], 3) + "x");
  out.results.emplace_back("timed launches", std::to_string(big.grid.x) +
                                                 " blocks x 256 threads, " +
                                                 std::to_string(expect.size()) +
                                                 " values kept, on " + exec.device().name);
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int keep = int(req.params.at("keep"));
  const std::vector<int> values = make_values(
      req.config.total_threads(), keep, req.params.at("pattern"), uint32_t(req.params.at("data")));
  std::vector<int> expect;
  for (int v : values)
    if (v < keep) expect.push_back(v);
  std::sort(expect.begin(), expect.end());
  if (Status s = run_ranks(exec, req, values, keep, out); !s) return s;
  if (Status s = run_compactions(exec, req, values, keep, expect, out); !s) return s;
  if (exec.backend() == Backend::Gpu) {
    if (Status s = time_compactions(exec, req, keep, out); !s) return s;
  } else {
    out.checks.push_back(
        measured_on_gpu_only("warp-aggregated atomics timed against one per thread"));
  }
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "divergence-and-coalesced";
  l.order = 80;
  l.title = "Divergence, coalesced_threads and warp-aggregated atomics";
  l.level = Level::Intermediate;
  l.concepts = {"divergence",      "active mask",      "coalesced_threads",
                "coalesced_group", "thread_rank",      "warp-aggregated atomics",
                "atomicAdd",       "stream compaction"};
  // Not comparable: in keep_aggregated each group's rank 0 broadcasts the counter's old value,
  // which depends on the order in which the warps' atomics landed; the comparison would see
  // those shfl inputs and outputs differ between backends, legitimately.
  l.traces_comparable = false;
  l.params = {
      {"keep", 40, 0, 100, "threads whose value (0..99) is below keep take the branch"},
      {"pattern", 0, 0, 1, "0: random values; 1: exactly the odd lanes take the branch"},
      {"data", 1, 0, 1 << 30, "seed of the random values"},
      {"timing_log2", 22, 10, 26, "GPU timing only: log2 of the number of threads timed"},
  };
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::divergence_and_coalesced
