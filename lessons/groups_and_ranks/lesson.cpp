// Lesson "groups-and-ranks": definition, CPU reference and checks.
#include <algorithm>
#include <string>
#include <vector>

#include "device/trace/compare.hpp"
#include "lessons/groups_and_ranks/kernels.hpp"
#include "lessons/groups_and_ranks/where_am_i.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"

extern const char coop_source_groups_and_ranks[];

namespace coop::lessons::groups_and_ranks {
namespace {

using F = WhereAmI;  // the row layout of where_am_i

constexpr uint32_t kMaxBlock = 1024;  // pass_handles' ring in shared memory

Status validate(const LaunchConfig& c, const Params&) {
  if (c.block.count() > kMaxBlock)
    return Status::error("groups-and-ranks keeps one int per thread in a " +
                         std::to_string(kMaxBlock) + "-int shared ring: block " + c.block.str() +
                         " has " + std::to_string(c.block.count()) + " threads");
  if (c.total_threads() > (1u << 20))
    return Status::error("groups-and-ranks records every thread: at most 1048576 threads, got " +
                         std::to_string(c.total_threads()));
  return {};
}

// What the handles must report for the thread at grid rank g (the CPU reference).
struct Expected {
  int row[F::kFields];
};

Expected expected_row(const LaunchConfig& c, size_t g, bool cooperative) {
  const Dim3 b = c.block;
  const uint32_t n = uint32_t(b.count());
  const uint32_t t = uint32_t(g % n);
  Expected e{};
  e.row[F::kRank] = int(t);
  e.row[F::kThreads] = int(n);
  e.row[F::kIndexX] = int(t % b.x);
  e.row[F::kIndexY] = int(t / b.x % b.y);
  e.row[F::kIndexZ] = int(t / (b.x * b.y));
  e.row[F::kDimX] = int(b.x);
  e.row[F::kDimY] = int(b.y);
  e.row[F::kDimZ] = int(b.z);
  e.row[F::kGridRank] = int(g);
  e.row[F::kGridThreads] = int(c.total_threads());
  e.row[F::kGridValid] = cooperative ? 1 : 0;
  e.row[F::kClusterBlocks] = 1;
  if (t % 3 == 0) {
    // The active lanes of t's warp: ranks that are multiples of 3 within the same 32.
    const uint32_t warp_begin = t / 32 * 32, warp_end = std::min(warp_begin + 32, n);
    int members = 0, below = 0;
    for (uint32_t r = warp_begin; r < warp_end; ++r)
      if (r % 3 == 0) {
        ++members;
        below += r < t;
      }
    e.row[F::kActiveThreads] = members;
    e.row[F::kActiveRank] = below;
  }
  return e;
}

// One check per group of fields: every thread's fields equal the reference.
Check fields_check(std::string name, const std::vector<int>& rows, const LaunchConfig& c,
                   bool cooperative, std::vector<F::Field> fields) {
  const size_t threads = c.total_threads();
  auto ok = [&](size_t g) {
    const Expected e = expected_row(c, g, cooperative);
    for (F::Field f : fields)
      if (rows[g * F::kFields + f] != e.row[f]) return false;
    return true;
  };
  auto describe = [&](size_t g) {
    const Expected e = expected_row(c, g, cooperative);
    std::string got, want;
    for (F::Field f : fields) {
      got += (got.empty() ? "" : ",") + std::to_string(rows[g * F::kFields + f]);
      want += (want.empty() ? "" : ",") + std::to_string(e.row[f]);
    }
    return "thread " + std::to_string(g) + " wrote " + got + ", expected " + want;
  };
  return all_of(std::move(name), threads, ok, describe);
}

Status run_where_am_i(Executor& exec, const RunRequest& req, LessonRun& out) {
  const bool cooperative = req.params.at("cooperative") != 0;
  LaunchConfig c = req.config;
  c.mode = cooperative ? LaunchMode::Cooperative : LaunchMode::Normal;
  const size_t threads = c.total_threads();
  auto d_rows = DeviceArray<int>::create(exec, threads * F::kFields, "rows");
  if (!d_rows) return d_rows.status();
  if (Status s = d_rows->zero(); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().where_am_i, c, trace, d_rows->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto rows = d_rows->download();
  if (!rows) return rows.status();

  out.checks.push_back(fields_check("thread_rank() = x + dim.x * (y + dim.y * z)", *rows, c,
                                    cooperative, {F::kRank, F::kIndexX, F::kIndexY, F::kIndexZ}));
  out.checks.push_back(fields_check("num_threads() and dim_threads() describe the block", *rows, c,
                                    cooperative, {F::kThreads, F::kDimX, F::kDimY, F::kDimZ}));
  out.checks.push_back(fields_check("the grid handle: thread_rank() and num_threads()", *rows, c,
                                    cooperative, {F::kGridRank, F::kGridThreads}));
  // Guaranteed only for a cooperative launch; in a normal one CUDA 13 drivers report 1 as well
  // (seen on an H200), so that value is shown, not checked.
  if (cooperative)
    out.checks.push_back(fields_check("grid.is_valid() is 1 under a cooperative launch", *rows, c,
                                      cooperative, {F::kGridValid}));
  out.checks.push_back(fields_check("this_cluster() without clusters holds 1 block", *rows, c,
                                    cooperative, {F::kClusterBlocks}));
  out.checks.push_back(
      fields_check("coalesced_threads() inside the branch: the warp's lanes "
                   "that took it, ranked in lane order",
                   *rows, c, cooperative, {F::kActiveThreads, F::kActiveRank}));

  // A sample the student can read: the last thread of block 0.
  const size_t last = c.block.count() - 1;
  const int* r = &(*rows)[last * F::kFields];
  out.results.emplace_back("block shape",
                           c.block.str() + " (" + std::to_string(c.block.count()) + " threads, " +
                               std::to_string((c.block.count() + 31) / 32) + " warps)");
  out.results.emplace_back("last thread of block 0",
                           "index (" + std::to_string(r[F::kIndexX]) + "," +
                               std::to_string(r[F::kIndexY]) + "," + std::to_string(r[F::kIndexZ]) +
                               ") -> rank " + std::to_string(r[F::kRank]));
  out.results.emplace_back("grid.is_valid()",
                           std::to_string((*rows)[F::kGridValid]) +
                               (cooperative ? " (cooperative launch)" : " (normal launch)"));
  out.results.emplace_back("coalesced group of thread 0",
                           std::to_string((*rows)[F::kActiveThreads]) + " threads");
  return {};
}

// Launches pass_handles with `how` and checks that every thread got its left neighbour.
Status launch_pass_handles(Executor& exec, const RunRequest& req, int how, LessonRun& out) {
  static const char* names[] = {"by reference", "by copy", "own handle"};
  LaunchConfig c = req.config;
  c.mode = LaunchMode::Normal;
  const size_t threads = c.total_threads();
  const size_t n = c.block.count();
  std::vector<int> in(threads);
  for (size_t i = 0; i < threads; ++i) in[i] = int(i);
  auto d_in = DeviceArray<int>::create(exec, threads, "in");
  auto d_out = DeviceArray<int>::create(exec, threads, "out");
  for (Status s : {d_in.status(), d_out.status()})
    if (!s) return s;
  if (Status s = d_in->upload(in); !s) return s;
  if (Status s = d_out->zero(); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().pass_handles, c, trace, d_in->get(), d_out->get(), how);
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto got = d_out->download();
  if (!got) return got.status();
  auto left_of = [&](size_t i) { return int(i / n * n + (i % n + n - 1) % n); };
  out.checks.push_back(all_of(
      std::string("from_left ") + names[how] + ": every thread got its left neighbour's value",
      threads, [&](size_t i) { return (*got)[i] == left_of(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " got " + std::to_string((*got)[i]) + ", expected " +
               std::to_string(left_of(i));
      }));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  if (Status s = run_where_am_i(exec, req, out); !s) return s;
  const int how = int(req.params.at("pass"));
  // The reference version always runs, so the chosen one can be compared with it.
  if (Status s = launch_pass_handles(exec, req, 0, out); !s) return s;
  if (how != 0)
    if (Status s = launch_pass_handles(exec, req, how, out); !s) return s;
  const Trace& reference = out.launches[1];
  const Trace& chosen = out.launches.back();
  const size_t threads = req.config.total_threads();
  auto creates = [](const Trace& t) {
    return count_events(t, [](const Event& e) { return e.kind == EventKind::GroupCreate; });
  };
  if (how == 1) {
    // A copy names the same group: its trace must match the reference's event for event.
    const TraceDiff diff = compare_deterministic(reference, chosen);
    out.checks.push_back(
        make_check("the copy records exactly what the reference records",
                   "0 differences in " + std::to_string(threads) + " threads",
                   std::to_string(diff.mismatches) + " differences in " +
                       std::to_string(diff.threads_compared) + " threads" +
                       (diff.examples.empty() ? "" : " (" + diff.examples[0] + ")"),
                   diff.equal() && diff.threads_compared == threads));
  }
  if (how == 2) {
    // The late handle is one more creation per thread, on the helper's line, and nothing else.
    const int late_line = line_of(coop_source_groups_and_ranks, "cg::thread_block late =");
    const size_t late = count_events(chosen, [&](const Event& e) {
      return e.kind == EventKind::GroupCreate && e.line == late_line;
    });
    out.checks.push_back(make_check(
        "the helper's own handle adds one GroupCreate per thread at line " +
            std::to_string(late_line),
        std::to_string(threads) + " more creations, all at line " + std::to_string(late_line),
        std::to_string(creates(chosen) - creates(reference)) + " more creations, " +
            std::to_string(late) + " at line " + std::to_string(late_line),
        late == threads && creates(chosen) - creates(reference) == threads));
  }
  out.checks.push_back(nothing_dropped(out.launches));
  out.results.emplace_back("handle creations per thread",
                           std::to_string(creates(chosen) / threads) + " (" +
                               std::to_string(creates(reference) / threads) + " by reference)");
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "groups-and-ranks";
  l.order = 10;
  l.title = "Groups, handles and ranks";
  l.level = Level::Beginner;
  l.concepts = {"thread_block", "grid_group",
                "thread_rank",  "num_threads",
                "thread_index", "dim_threads",
                "is_valid",     "coalesced_threads",
                "this_cluster", "pass handles by reference"};
  l.params = {
      {"cooperative", 0, 0, 1,
       "0: normal launch; 1: cooperative launch (grid.is_valid() becomes true)"},
      {"pass", 0, 0, 2,
       "how pass_handles gives the helper the block: 0 by reference, 1 by copy, 2 the helper "
       "makes its own handle"},
  };
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {8, 4, 2};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::groups_and_ranks
