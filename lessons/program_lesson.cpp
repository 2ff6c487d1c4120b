#include "lessons/program_lesson.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "device/launch/launch_config.hpp"
#include "device/occupancy/block_schedule.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/trace_claims.hpp"
#include "lessons/value_claims.hpp"

namespace coop::lessons {
namespace {

// "[pass] NAME: expected EXPECTED, got GOT" (or [FAIL], [skip]) into a check; false for any
// other line.
bool read_check(std::string_view line, Check& c) {
  const bool pass = line.starts_with("[pass] "), fail = line.starts_with("[FAIL] "),
             skip = line.starts_with("[skip] ");
  if (!pass && !fail && !skip) return false;
  const std::string_view rest = line.substr(7);
  const size_t expected = rest.find(": expected ");
  if (expected == std::string_view::npos) return false;
  const std::string_view what = rest.substr(expected + 11);
  const size_t got = what.find(", got ");
  if (got == std::string_view::npos) return false;
  c.name = rest.substr(0, expected);
  c.expected = what.substr(0, got);
  c.got = what.substr(got + 6);
  c.pass = pass;
  c.skipped = skip;
  return true;
}

// "[count] NAME: SPEC in KERNEL [launch K]": a result whose value coopviz counts in the trace
// (what only the trace knows, such as the atomics a warp-aggregated kernel issued), or
// "[count] NAME: WHAT in the race to F in KERNEL launch K" (value_claims.hpp).
bool read_count(std::string_view line, const LessonRun& run,
                std::pair<std::string, std::string>& result) {
  if (!line.starts_with("[count] ")) return false;
  const std::string_view rest = line.substr(8);
  const size_t in = rest.rfind(" in ");
  // A name may hold ": " ("race: updates lost"); what is counted holds none.
  const size_t colon = in == std::string_view::npos ? in : rest.rfind(": ", in);
  if (colon == std::string_view::npos || in == std::string_view::npos) return false;
  result.first = rest.substr(0, colon);
  const std::string_view what = rest.substr(colon + 2, in - colon - 2);
  const std::optional<EventSpec> spec = read_spec(what);
  const Counted counted = launches_named(rest.substr(in + 4), run.launches);
  if (std::optional<std::string> race = count_in_race(what, counted))
    result.second = *race;
  else if (!spec)
    result.second = std::string("'").append(what).append("' is no count of an event kind");
  else
    result.second = counted.missing.empty() ? std::to_string(counted.count(*spec)) : counted.missing;
  return true;
}

// "[trace] NAME: expected 512 copy_issue, 512 copy_wait in pipeline" as a check of run's launches,
// each item settled by settle_item (lessons/trace_claims.hpp says every form).
bool read_trace_claim(std::string_view line, const LessonRun& run, Check& c) {
  if (!line.starts_with("[trace] ")) return false;
  const std::string_view rest = line.substr(8);
  const size_t expected = rest.find(": expected ");
  const size_t in = rest.rfind(" in ");
  if (expected == std::string_view::npos || in == std::string_view::npos || in < expected)
    return false;
  c.name = rest.substr(0, expected);
  c.expected = rest.substr(expected + 11, in - expected - 11);
  const Counted counted = launches_named(rest.substr(in + 4), run.launches);
  c.pass = counted.missing.empty();
  if (!c.pass) {
    c.got = counted.missing;
    return true;
  }
  bool failed = false, skipped = false;
  std::string_view items = c.expected;
  while (!items.empty()) {
    const size_t comma = items.find(", ");
    const SettledItem one = settle_item(items.substr(0, comma), counted);
    items = comma == std::string_view::npos ? std::string_view() : items.substr(comma + 2);
    if (one.error) {
      c.pass = false;
      c.got = one.got;
      return true;
    }
    // An item the launches cannot settle (races on a GPU) skips the claim, never fails it.
    skipped = skipped || one.skipped;
    failed = failed || (!one.holds && !one.skipped);
    if (!one.skipped || c.got.find(one.got) == std::string::npos)  // one reason, said once
      c.got += (c.got.empty() ? "" : ", ") + one.got;
  }
  c.skipped = skipped && !failed;
  c.pass = !failed && !skipped;
  return true;
}

// "[schedule] KERNEL: P blocks per SM on N SMs", then on the emulator one line per block,
// "[schedule] KERNEL: block B on SM S from T0 to T1", of the schedule the program modelled
// (where the emulator, which does not time blocks, shows the block scheduler's model).
struct StatedSchedule {
  std::string kernel;  // as launches_named reads it: "KERNEL" or "KERNEL launch K"
  BlockSchedule schedule;
  std::string unreadable;  // the first line that could not be read
};

bool read_schedule_line(std::string_view line, std::vector<StatedSchedule>& stated) {
  if (!line.starts_with("[schedule] ")) return false;
  const std::string_view rest = line.substr(11);
  const size_t colon = rest.find(": ");
  const std::string kernel(rest.substr(0, colon));
  if (stated.empty() || stated.back().kernel != kernel) stated.push_back({kernel, {}, {}});
  StatedSchedule& s = stated.back();
  const std::string what(colon == std::string_view::npos ? "" : rest.substr(colon + 2));
  unsigned block = 0, sm = 0, per_sm = 0, sms = 0;
  double start = 0, end = 0;
  char extra = 0;
  if (std::sscanf(what.c_str(), "block %u on SM %u from %lf to %lf%c", &block, &sm, &start, &end,
                  &extra) == 4 &&
      start <= end) {
    s.schedule.blocks.push_back({block, sm, start, end});
    s.schedule.modelled = true;
    s.schedule.unit = "work units";
  } else if (std::sscanf(what.c_str(), "%u blocks per SM on %u SMs%c", &per_sm, &sms, &extra) ==
             2) {
    s.schedule.blocks_per_sm = int(per_sm);
    s.schedule.sm_count = sms;
  } else if (s.unreadable.empty()) {
    s.unreadable = std::string(line);
  }
  return true;
}

// Each stated schedule, on the launches of its kernel: a modelled one (its blocks listed) placed
// into their traces; a measured one's block records checked against its limit of blocks per SM.
void settle_schedules(const std::vector<StatedSchedule>& stated, LessonRun& run) {
  for (const StatedSchedule& s : stated) {
    const Counted counted = launches_named(s.kernel, run.launches);
    if (!s.unreadable.empty() || !counted.missing.empty() || s.schedule.blocks_per_sm <= 0) {
      run.checks.push_back(make_check(
          "the schedule of " + s.kernel, "\"[schedule] KERNEL: P blocks per SM on N SMs\"",
          !counted.missing.empty() ? counted.missing
          : s.unreadable.empty()   ? std::string("no blocks per SM stated")
                                   : "unreadable: " + s.unreadable,
          false));
      continue;
    }
    for (const Trace* t : counted.launches) {
      if (s.schedule.blocks.empty()) {
        run.checks.push_back(trace_schedule_within(*t, s.schedule.blocks_per_sm));
        continue;
      }
      for (Trace& mine : run.launches)
        if (&mine == t) apply_schedule_to_trace(s.schedule, mine);
    }
  }
}

ProgramLessonRunner& runner() {
  static ProgramLessonRunner r = nullptr;
  return r;
}

BenchmarkSummary& benchmark_summary() {
  static BenchmarkSummary s = nullptr;
  return s;
}

}  // namespace

std::vector<std::string> program_arguments(const LessonDef& lesson, const RunRequest& request,
                                           Backend backend) {
  // A grid or block the program derives (LessonDef::derives_grid), left as the lesson's default
  // and not given by the user, is left out: the program chooses it.
  const LaunchConfig& given = request.config;
  const auto left_to_program = [&](bool derived, bool user_gave, Dim3 value, Dim3 fallback) {
    return derived && !user_gave && value == fallback;
  };
  std::vector<std::string> args = {std::string("--backend=") +
                                   (backend == Backend::Gpu ? "gpu" : "emulator")};
  if (!left_to_program(lesson.derives_grid, request.grid_given, given.grid,
                       lesson.default_config.grid))
    args.push_back("--grid=" + given.grid.str());
  if (!left_to_program(lesson.derives_block, request.block_given, given.block,
                       lesson.default_config.block))
    args.push_back("--block=" + given.block.str());
  if (request.config.mode == LaunchMode::Cluster)
    args.push_back("--cluster=" + request.config.cluster.str());
  for (const ParamDef& p : lesson.params) {
    const auto given = request.params.find(p.name);
    const int64_t value = given != request.params.end() ? given->second : p.default_value;
    args.push_back("--" + p.name + "=" + std::to_string(value));
  }
  return args;
}

std::string read_program_report(std::string_view printed, LessonRun& run) {
  std::string other;
  std::vector<StatedSchedule> schedules;
  size_t start = 0;
  while (start < printed.size()) {
    size_t end = printed.find('\n', start);
    if (end == std::string_view::npos) end = printed.size();
    const std::string_view line = printed.substr(start, end - start);
    start = end + 1;
    std::pair<std::string, std::string> counted;
    if (read_schedule_line(line, schedules)) continue;
    if (Check c; read_check(line, c) || read_trace_claim(line, run, c)) {
      run.checks.push_back(std::move(c));
    } else if (read_count(line, run, counted)) {
      run.results.push_back(std::move(counted));
    } else if (const size_t equals = line.find(" = ");
               line.starts_with("[result] ") && equals != std::string_view::npos) {
      run.results.emplace_back(std::string(line.substr(9, equals - 9)),
                               std::string(line.substr(equals + 3)));
    } else {
      other.append(line).push_back('\n');
    }
  }
  settle_schedules(schedules, run);
  return other;
}

void set_program_lesson_runner(ProgramLessonRunner run) { runner() = run; }
void set_benchmark_summary(BenchmarkSummary summary) { benchmark_summary() = summary; }

Status run_program_lesson(const LessonDef& lesson, Executor& exec, const RunRequest& request,
                          LessonRun& out) {
  if (!runner())
    return Status::error("lesson " + lesson.id + " is a CUDA program (" + lesson.program +
                         "), which this build of coopviz cannot run");
  Status s = runner()(lesson, exec, request, out);
  if (s && lesson.benchmark_tab && benchmark_summary())
    out.results.emplace_back(kBenchmarkResult, benchmark_summary()());
  return s;
}

}  // namespace coop::lessons
