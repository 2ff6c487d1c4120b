#include "lessons/lesson.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

#include "lessons/lesson_checks.hpp"
#include "lessons/program_lesson.hpp"

namespace coop::lessons {

const char* to_string(Level level) {
  switch (level) {
    case Level::Beginner: return "beginner";
    case Level::Intermediate: return "intermediate";
    case Level::Advanced: return "advanced";
  }
  return "?";
}

bool LessonRun::passed() const {
  if (!status.ok()) return false;
  for (const Check& c : checks)
    if (!c.pass && !c.skipped) return false;
  return true;
}

const LessonDef* find_lesson(std::string_view id) {
  for (const LessonDef& l : registry())
    if (l.id == id) return &l;
  return nullptr;
}

std::string lesson_ids() {
  std::string out;
  for (const LessonDef& l : registry()) out += (out.empty() ? "" : ", ") + l.id;
  return out;
}

namespace {

const ParamDef* find_param(const LessonDef& lesson, const std::string& name) {
  for (const ParamDef& p : lesson.params)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

Status check_params(const LessonDef& lesson, const Params& params) {
  for (const auto& [name, value] : params) {
    const ParamDef* def = find_param(lesson, name);
    if (def == nullptr) {
      std::string known;
      for (const ParamDef& p : lesson.params) known += (known.empty() ? "" : ", ") + p.name;
      return Status::error("lesson " + lesson.id + " has no parameter '" + name + "'" +
                           (known.empty() ? " (it takes none)" : " (it takes " + known + ")"));
    }
    if (value < def->min || value > def->max)
      return Status::error("parameter " + name + " = " + std::to_string(value) + " is outside " +
                           std::to_string(def->min) + ".." + std::to_string(def->max));
    if (def->power_of_two && (value <= 0 || (value & (value - 1)) != 0))
      return Status::error("parameter " + name + " = " + std::to_string(value) +
                           " must be a power of two in " + std::to_string(def->min) + ".." +
                           std::to_string(def->max));
  }
  return {};
}

Result<Params> parse_params(const LessonDef& lesson, const std::vector<std::string>& items) {
  Params params;
  for (const ParamDef& p : lesson.params) params[p.name] = p.default_value;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return Status::error("--param '" + item + "' is not of the form name=value");
    const std::string name = item.substr(0, eq);
    const std::string text = item.substr(eq + 1);
    const ParamDef* def = find_param(lesson, name);
    if (def == nullptr) {
      Params probe{{name, 0}};
      return check_params(lesson, probe);
    }
    const bool negative = !text.empty() && text[0] == '-';
    Result<uint64_t> v = parse_count(negative ? std::string_view(text).substr(1) : text,
                                     "--param " + name, uint64_t(1) << 62);
    if (!v)
      return Status::error("--param " + name + " expects a whole number in " +
                           std::to_string(def->min) + ".." + std::to_string(def->max) + ", got '" +
                           text + "'");
    params[name] = negative ? -int64_t(*v) : int64_t(*v);
  }
  if (Status s = check_params(lesson, params); !s) return s;
  return params;
}

std::vector<int> lines_with(std::string_view source, std::string_view snippet) {
  std::vector<int> lines;
  int line = 1;
  size_t start = 0;
  while (start <= source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    if (source.substr(start, end - start).find(snippet) != std::string_view::npos)
      lines.push_back(line);
    ++line;
    start = end + 1;
  }
  return lines;
}

std::pair<int, int> kernel_lines(std::string_view source, std::string_view kernel) {
  auto line_of = [&](size_t pos) {
    return int(std::count(source.begin(), source.begin() + std::ptrdiff_t(pos), '\n')) + 1;
  };
  auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t g = source.find("__global__"); g != std::string_view::npos;
       g = source.find("__global__", g + 1)) {
    // The name must follow on the declaration, before its parameter list opens.
    const size_t paren = source.find('(', g);
    if (paren == std::string_view::npos) break;
    const std::string_view head = source.substr(g, paren - g);
    size_t at = head.rfind(kernel);
    if (at == std::string_view::npos || (at > 0 && is_name(head[at - 1])) ||
        (at + kernel.size() < head.size() && is_name(head[at + kernel.size()])))
      continue;
    // The body: from the first '{' after the parameters to the brace that closes it.
    size_t open = source.find('{', paren);
    if (open == std::string_view::npos) break;
    int depth = 0;
    for (size_t i = open; i < source.size(); ++i) {
      if (source[i] == '{') ++depth;
      if (source[i] == '}' && --depth == 0) return {line_of(g), line_of(i)};
    }
    break;
  }
  return {0, 0};
}

RunRequest step_request(const LessonDef& lesson, const Step& step) {
  RunRequest r;
  for (const ParamDef& p : lesson.params) r.params[p.name] = p.default_value;
  for (const auto& [name, value] : step.params) r.params[name] = value;
  r.config = lesson.default_config;
  if (step.grid) r.config.grid = *step.grid;
  if (step.block) r.config.block = *step.block;
  return r;
}

bool records_memory_in(const LessonDef& lesson, const Params& params) {
  if (lesson.records_memory) return true;
  if (!lesson.records_memory_when) return false;
  const LessonDef::MemoryRecordingWhen& when = *lesson.records_memory_when;
  std::optional<int64_t> value;
  if (const auto given = params.find(when.param); given != params.end()) value = given->second;
  for (const ParamDef& p : lesson.params)
    if (!value && p.name == when.param) value = p.default_value;
  return value && std::find(when.values.begin(), when.values.end(), *value) != when.values.end();
}

LessonRun run_lesson(const LessonDef& lesson, Executor& exec, const RunRequest& request) {
  LessonRun out;
  if (Status s = check_params(lesson, request.params); !s) {
    out.status = s;
    return out;
  }
  if (lesson.validate) {
    if (Status s = lesson.validate(request.config, request.params); !s) {
      out.status = s;
      return out;
    }
  }
  if (exec.backend() == Backend::Gpu && !lesson.runs_on_gpu) {
    out.status = Status::error("lesson " + lesson.id +
                               " demonstrates a hazard (a deadlock or undefined behaviour) and "
                               "runs only on the emulator, which reports it instead of hanging");
    return out;
  }
  const DeviceProps& d = exec.device();
  if (exec.backend() == Backend::Gpu && lesson.min_cc > d.cc_major * 10 + d.cc_minor) {
    out.status = Status::error("lesson " + lesson.id + " needs compute capability " +
                               std::to_string(lesson.min_cc / 10) + "." +
                               std::to_string(lesson.min_cc % 10) + "; " + d.name + " is " +
                               d.cc_string() + " (run it on the emulator)");
    return out;
  }
  const ExecOptions saved = exec.options();
  exec.options().schedule = request.schedule;
  exec.options().seed = request.seed;
  // Only the emulator sees untraced loads and stores; a GPU records the traced ones alone.
  if (records_memory_in(lesson, request.params) && exec.backend() == Backend::Emu)
    exec.options().record_memory = true;
  out.status = lesson.program.empty() ? lesson.run(exec, request, out)
                                      : run_program_lesson(lesson, exec, request, out);
  exec.options().schedule = saved.schedule;
  exec.options().seed = saved.seed;
  exec.options().record_memory = saved.record_memory;
  // Timestamps the views draw must keep the hardware's order: checked on every run that
  // recorded something (a launch that failed before recording leaves nothing to check).
  const bool recorded = std::any_of(out.launches.begin(), out.launches.end(),
                                    [](const Trace& t) { return !t.events.empty(); });
  if (recorded && exec.options().trace) out.checks.push_back(time_order_check(out.launches));
  for (Trace& t : out.launches) {
    t.header.lesson = lesson.id;
    t.header.source_file = lesson.source_file;
    t.header.source = std::string(lesson.source);
    for (const auto& [name, value] : request.params) t.header.params[name] = std::to_string(value);
  }
  return out;
}

std::string format_float(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

Check make_check(std::string name, std::string expected, std::string got, bool pass) {
  Check c;
  c.name = std::move(name);
  c.expected = std::move(expected);
  c.got = std::move(got);
  c.pass = pass;
  return c;
}

}  // namespace coop::lessons
