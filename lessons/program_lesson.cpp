#include "lessons/program_lesson.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>

#include "device/trace/names.hpp"
#include "lessons/lesson_checks.hpp"

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

// A count's filter, "where tile=4|32": which events of its kind count (those of a tile of one of
// these sizes). Null with `why` set when it is no such filter.
std::function<bool(const Event&)> read_filter(std::string_view filter, std::string& why) {
  std::vector<uint32_t> sizes;
  bool sizes_only = filter.starts_with("tile=");
  for (std::string_view rest = sizes_only ? filter.substr(5) : ""; !rest.empty();) {
    const size_t bar = rest.find('|');
    const std::string_view size = rest.substr(0, bar);
    sizes_only = sizes_only && !size.empty() && size.size() <= 9 &&
                 size.find_first_not_of("0123456789") == std::string_view::npos;
    sizes.push_back(uint32_t(std::strtoul(std::string(size).c_str(), nullptr, 10)));
    rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
  }
  if (sizes_only && !sizes.empty())
    return [sizes](const Event& e) {
      return e.group_kind == GroupKind::Tile &&
             std::find(sizes.begin(), sizes.end(), e.group_size) != sizes.end();
    };
  why = "'where " + std::string(filter) + "' is no filter (tile=SIZE|SIZE...)";
  return nullptr;
}

// "[trace] NAME: expected 512 copy_issue, 512 copy_wait in pipeline" as a check of run's launches;
// a count may name which of its kind it counts ("512 barrier where tile=4|32").
bool read_trace_claim(std::string_view line, const LessonRun& run, Check& c) {
  if (!line.starts_with("[trace] ")) return false;
  const std::string_view rest = line.substr(8);
  const size_t expected = rest.find(": expected ");
  const size_t in = rest.rfind(" in ");
  if (expected == std::string_view::npos || in == std::string_view::npos || in < expected)
    return false;
  c.name = rest.substr(0, expected);
  c.expected = rest.substr(expected + 11, in - expected - 11);
  // "KERNEL" counts all its launches, "KERNEL launch K" its K-th (from 1).
  std::string kernel(rest.substr(in + 4));
  size_t which = 0;
  if (const size_t at = kernel.rfind(" launch "); at != std::string::npos) {
    which = std::strtoull(kernel.c_str() + at + 8, nullptr, 10);
    kernel.resize(at);
  }
  std::vector<const Trace*> counted;
  for (const Trace& t : run.launches)
    if (t.header.kernel == kernel) counted.push_back(&t);
  if (which > 0) counted = which <= counted.size() ? std::vector{counted[which - 1]}
                                                    : std::vector<const Trace*>{};
  c.pass = !counted.empty();
  if (!c.pass) {
    c.got = "no launch of " + kernel + (which ? " number " + std::to_string(which) : "");
    return true;
  }
  std::string_view counts = c.expected;
  while (!counts.empty()) {
    const size_t comma = counts.find(", ");
    const std::string_view one = counts.substr(0, comma);
    counts = comma == std::string_view::npos ? std::string_view() : counts.substr(comma + 2);
    const size_t where = one.find(" where ");
    const std::string_view counted_kind = one.substr(0, where);
    const size_t space = counted_kind.find(' ');
    const std::optional<EventKind> kind = event_kind_named(
        space == std::string_view::npos ? counted_kind : counted_kind.substr(space + 1));
    std::function<bool(const Event&)> filter = [](const Event&) { return true; };
    if (where != std::string_view::npos) filter = read_filter(one.substr(where + 7), c.got);
    if (!kind || !filter) {
      c.pass = false;
      if (!kind) c.got = "'" + std::string(one) + "' is no count of an event kind";
      return true;
    }
    size_t n = 0;
    for (const Trace* t : counted)
      n += count_events(*t, [&](const Event& e) { return e.kind == *kind && filter(e); });
    const std::string got = std::to_string(n) + " " + std::string(name_of(*kind)) +
                            std::string(where == std::string_view::npos ? "" : one.substr(where));
    c.pass = c.pass && got == one;
    c.got += (c.got.empty() ? "" : ", ") + got;
  }
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
    if (Check c; read_check(line, c) || read_trace_claim(line, run, c)) {
      run.checks.push_back(std::move(c));
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
