#include "lessons/program_lesson.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "device/launch/launch_config.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/trace_claims.hpp"

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
// (what only the trace knows, such as the atomics a warp-aggregated kernel issued).
bool read_count(std::string_view line, const LessonRun& run,
                std::pair<std::string, std::string>& result) {
  if (!line.starts_with("[count] ")) return false;
  const std::string_view rest = line.substr(8);
  const size_t colon = rest.find(": ");
  const size_t in = rest.rfind(" in ");
  if (colon == std::string_view::npos || in == std::string_view::npos || in < colon) return false;
  result.first = rest.substr(0, colon);
  const std::string_view what = rest.substr(colon + 2, in - colon - 2);
  const std::optional<EventSpec> spec = read_spec(what);
  const Counted counted = launches_named(rest.substr(in + 4), run.launches);
  if (!spec)
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

ProgramLessonRunner& runner() {
  static ProgramLessonRunner r = nullptr;
  return r;
}

}  // namespace

std::vector<std::string> program_arguments(const LessonDef& lesson, const RunRequest& request,
                                           Backend backend) {
  std::vector<std::string> args = {
      std::string("--backend=") + (backend == Backend::Gpu ? "gpu" : "emulator"),
      "--grid=" + request.config.grid.str(), "--block=" + request.config.block.str()};
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
  size_t start = 0;
  while (start < printed.size()) {
    size_t end = printed.find('\n', start);
    if (end == std::string_view::npos) end = printed.size();
    const std::string_view line = printed.substr(start, end - start);
    start = end + 1;
    std::pair<std::string, std::string> counted;
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
  return other;
}

void set_program_lesson_runner(ProgramLessonRunner run) { runner() = run; }

Status run_program_lesson(const LessonDef& lesson, Executor& exec, const RunRequest& request,
                          LessonRun& out) {
  if (!runner())
    return Status::error("lesson " + lesson.id + " is a CUDA program (" + lesson.program +
                         "), which this build of coopviz cannot run");
  return runner()(lesson, exec, request, out);
}

}  // namespace coop::lessons
