#include "app/program/lesson_program.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>

#include "app/program/kernel_resource_table.hpp"
#include "app/program/program.hpp"
#include "app/program/register_caps.hpp"
#include "device/occupancy/program_resources.hpp"
#include "device/paths/data_dirs.hpp"
#include "device/trace/trace_file.hpp"
#include "device/trace/user_file.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/program_lesson.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

// The first "error: ..." line of what the program wrote to stderr, without the prefix; else its
// last line. A launch the runtime refused is an error code to the program, which says CUDA's
// words for it ("unspecified launch failure"): the runtime's own line before it says which rule
// it broke, and is added.
std::string refusal(const std::string& err) {
  std::istringstream lines(err);
  std::string last, why;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("error: "))
      return line.substr(7) + (why.empty() ? "" : " (" + why + ")");
    if (line.starts_with("coopviz: ") && why.empty()) why = line.substr(9);
    if (!line.empty()) last = line;
  }
  return last;
}

// The files one run writes, removed when it is over.
struct RunFiles {
  std::string trace, out, err;
  RunFiles() {
    static std::atomic<unsigned> runs{0};
    const std::string base = (fs::temp_directory_path() /
                              ("coopviz-lesson-" + std::to_string(getpid()) + "-" +
                               std::to_string(runs++)))
                                 .string();
    trace = base + ".cvt";
    out = base + ".out";
    err = base + ".err";
  }
  ~RunFiles() {
    std::error_code ec;
    for (const std::string* f : {&trace, &out, &err}) fs::remove(*f, ec);
  }
};

std::string read_or_empty(const std::string& path) {
  Result<std::string> text = read_user_file(path, kTextFileLimit);
  return text ? *text : std::string();
}

// The compiler's report of the program's kernels under the lesson's name
// ("grid_sync::reduce_grid_sync"): questions and the occupancy command find a lesson's kernels
// by it, as they find the kernels built into coopviz. The emulator's build made the report; for a GPU build
// it is made here, once a process for each lesson and architecture (no GPU, no cost to the tests).
void register_lesson_resources(const lessons::LessonDef& lesson, const ProgramOptions& p,
                               const ProgramBuild& build) {
  const fs::path source = fs::absolute(lesson.program);
  std::string table;
  if (p.gpu_arch.empty()) {
    Result<std::string> made = read_user_file(build.executable + ".resources", kTextFileLimit);
    if (!made) return;
    table = *made;
  } else {
    static std::mutex lock;
    static std::set<std::string> made;
    {
      std::lock_guard<std::mutex> hold(lock);
      if (!needs_kernel_resources({std::string(lesson.source)}) ||
          !made.insert(lesson.program + " " + p.gpu_arch).second)
        return;
    }
    KernelResourceRequest request{source.string(), {}, std::atoi(p.gpu_arch.c_str() + 3)};
    for (const std::string& i : p.includes) request.options.push_back("-I" + i);
    const RunFiles files;  // its names, for the report's PTX
    table = make_kernel_resource_table(request, files.trace);
  }
  if (Result<ProgramResourceTable> rows = parse_program_resources(table))
    register_program_resources(
        *rows, "coop::lessons::" + source.parent_path().filename().string() + "::", nullptr);
}

}  // namespace

Status run_lesson_program(const lessons::LessonDef& lesson, Executor& exec,
                          const lessons::RunRequest& request, lessons::LessonRun& out) {
  const bool gpu = exec.backend() == Backend::Gpu;
  ProgramOptions p;
  p.file = lesson.program;
  p.args = lessons::program_arguments(lesson, request, exec.backend());
  // lesson_protocol.h (the arguments and lines every lesson program shares) is found in coopviz's
  // own lessons wherever the lesson's folder is.
  if (const fs::path shipped = data_dirs().lessons;
      !shipped.empty() && lesson.source.find("lesson_protocol.h") != std::string_view::npos)
    p.includes.push_back((shipped / "lesson_protocol").string());
  if (gpu) {
    p.gpu_arch = local_gpu_arch();
    if (p.gpu_arch.empty()) return Status::error("no CUDA device to build " + lesson.program + " for");
  } else {
    p.arch = exec.device().arch_string();
  }
  p.schedule = request.schedule;
  p.seed = request.seed;
  p.trace_capacity = exec.options().trace_capacity;
  p.trace_launches = lesson.trace_launches;  // every launch, unless its repeats are many
  p.vary_repeats = lesson.vary_repeats;
  p.traced = exec.options().trace;
  p.record_memory = !gpu && p.traced && exec.options().record_memory;
  p.trace_threads_max = lesson.trace_threads_max;
  p.shown = lesson.shown;
  const RunFiles files;
  p.trace_out = files.trace;
  p.stdout_path = files.out;
  p.stderr_path = files.err;
  Result<ProgramBuild> build = build_program(p);
  if (!build)
    return Status::error(build.status().message() + (build.status().message().ends_with("\n") ? "" : "\n") +
                         lesson.program + " did not compile for " +
                         (gpu ? "the GPU (" + p.gpu_arch + ")" : std::string("the emulator")));
  register_lesson_resources(lesson, p, *build);
  Result<ProgramRun> ran = run_program(p, *build);
  if (!ran) return ran.status();
  std::error_code ec;
  if (fs::exists(files.trace, ec)) {
    Result<std::vector<Trace>> launches = load_traces(files.trace);
    if (!launches) return launches.status();
    out.launches = std::move(*launches);
  }
  // Its checks are in what it printed: output that cannot be read is an error, never no checks.
  Result<std::string> printed = read_user_file(files.out, kSourceFileLimit);
  if (printed) lessons::read_program_report(*printed, out);
  const std::string err = read_or_empty(files.err);
  if (!ran->what.empty()) return Status::error(lesson.program + ": " + ran->what);
  if (!printed) return Status::error(lesson.program + "'s output: " + printed.message());
  if (ran->exit_code == 2) return Status::error(refusal(err));
  const bool failed = std::any_of(out.checks.begin(), out.checks.end(),
                                  [](const lessons::Check& c) { return !c.pass && !c.skipped; });
  if (ran->exit_code != 0 && !failed)
    return Status::error(lesson.program + " exited with status " + std::to_string(ran->exit_code) +
                         " and no failed check" + (err.empty() ? "" : ": " + refusal(err)));
  add_register_cap_reports(lesson, p, *build, exec.device(), out);
  out.checks.push_back(lessons::nothing_dropped(out.launches));
  return {};
}

void install_lesson_runner() { lessons::set_program_lesson_runner(&run_lesson_program); }

}  // namespace coop::app
