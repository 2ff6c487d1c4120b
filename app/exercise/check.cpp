// Checking a student's file: one program made of the student's file (its main() renamed), the
// cases' harness and the exercise's cases.cu, built and run like `coopviz run FILE.cu`, whose
// output lines are the cases (lessons/exercise_harness/exercise_harness.cuh).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "app/exercise/exercise.hpp"
#include "app/program/program.hpp"
#include "device/paths/data_dirs.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

// Long enough for the slowest reference solution's cases on a busy 2-core machine; an endless
// loop or a deadlock that the emulator does not catch ends here, as a failed case.
constexpr double kCheckTimeoutSeconds = 30;

// `text` as the compiler should see it: its lines numbered from 1 as `name`'s.
std::string as_file(const std::string& name, const std::string& text) {
  return "#line 1 \"" + name + "\"\n" + text + (text.ends_with("\n") ? "" : "\n");
}

// The program the check builds: the student's main() is renamed so that the harness's runs.
Result<std::string> check_program(const Exercise& e, const std::string& file) {
  Result<std::string> student = read_whole_file(file);
  if (!student) return student.status();
  const fs::path harness_path = data_dirs().lessons / "exercise_harness" / "exercise_harness.cuh";
  Result<std::string> harness = read_whole_file(harness_path);
  if (!harness) return harness.status();
  Result<std::string> cases = read_whole_file(e.folder / "cases.cu");
  if (!cases) return cases.status();
  std::string h = *harness;
  // The harness is pasted, not included: no "#pragma once in main file" warning.
  if (size_t at = h.find("#pragma once\n"); at != std::string::npos) h.erase(at, 13);
  return "#define main coopviz_student_main\n" + as_file(file, *student) + "#undef main\n" +
         as_file(harness_path.string(), h) + as_file((e.folder / "cases.cu").string(), *cases);
}

// Writes the program where its build is cached: the same text in the same folder is the same
// build, so checking an unchanged file again reuses it.
Result<fs::path> write_check_program(const std::string& text) {
  const std::string key = std::to_string(std::hash<std::string>{}(text));
  const fs::path dir = fs::path(program_cache_root()) / "exercise-checks" / key;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir.string() + ": " + ec.message());
  const fs::path path = dir / "check.cu";
  const fs::path partial = dir / ("check.cu." + std::to_string(getpid()));
  std::ofstream(partial, std::ios::binary) << text;
  fs::rename(partial, path, ec);
  if (ec) return Status::error("cannot write " + path.string() + ": " + ec.message());
  return path;
}

// A token no output of the student's code can guess.
std::string fresh_token() {
  std::random_device device;
  return std::to_string(device()) + std::to_string(device());
}

CaseResult case_from(const nlohmann::json& j, const std::string& schedule) {
  CaseResult c;
  c.schedule = schedule;
  c.launch = j.value("launch", "");
  c.input = j.value("input", "");
  c.passed = j.value("result", "") == "passed";
  c.index = j.value("index", -1L);
  c.got = j.value("got", "");
  c.want = j.value("want", "");
  c.problem = j.value("problem", "");
  return c;
}

// The cases the program printed; a case it began and never finished is failed with `stopped`
// (the runner's words for how the program ended), and so is the program that printed no case.
void read_cases(const std::string& output, const std::string& token, const std::string& schedule,
                const std::string& stopped, CheckReport& report) {
  std::istringstream lines(output);
  const std::string begin = "@coopviz-begin " + token + " ", done = "@coopviz-case " + token + " ";
  bool open = false;
  for (std::string line; std::getline(lines, line);) {
    const bool is_begin = line.starts_with(begin), is_done = line.starts_with(done);
    if (!is_begin && !is_done) continue;
    const nlohmann::json j =
        nlohmann::json::parse(line.substr((is_begin ? begin : done).size()), nullptr, false);
    if (j.is_discarded()) continue;
    if (is_done) {
      if (open) report.cases.back() = case_from(j, schedule);
      open = false;
      continue;
    }
    CaseResult c = case_from(j, schedule);
    c.passed = false;
    c.problem = stopped.empty() ? "the case did not finish" : stopped;
    report.cases.push_back(c);
    open = true;
  }
}

}  // namespace

const std::vector<CheckSchedule>& check_schedules() {
  // Lock-step, then other legal interleavings: warps and blocks in a seeded order with loads and
  // stores as step points (a missing barrier shows), and a warp's lanes one at a time (code that
  // leans on warp-synchronous execution shows).
  static const std::vector<CheckSchedule> schedules = {{"lockstep", 0}, {"random", 1}, {"its", 2}};
  return schedules;
}

Result<CheckReport> check_exercise(const Exercise& e, const std::string& file,
                                   const CheckProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto tell = [&](double fraction, const std::string& stage) {
    if (progress) progress(fraction, stage);
  };
  CheckReport report;
  report.exercise = e.id;
  report.file = file;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return Status::error("no file '" + file + "'");
  Result<std::string> text = check_program(e, file);
  if (!text) return text.status();
  Result<fs::path> program = write_check_program(*text);
  if (!program) return program.status();

  tell(0, "building " + file);
  ProgramOptions p;
  p.file = program->string();
  // The student's own headers, beside the file, are found as they would be by nvcc.
  p.includes = {fs::absolute(file, ec).parent_path().string()};
  p.timeout_seconds = kCheckTimeoutSeconds;
  Result<ProgramBuild> build = build_program(p);
  if (!build) {
    report.compiler_output = build.status().message();
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tell(1, "did not compile");
    return report;
  }
  report.compiled = true;
  report.build_seconds = build->seconds;
  report.build_cached = build->cached;

  const std::vector<CheckSchedule>& schedules = check_schedules();
  for (size_t k = 0; k < schedules.size(); ++k) {
    const CheckSchedule& schedule = schedules[k];
    tell(0.5 + 0.5 * double(k) / double(schedules.size()),
         "running the hidden cases (" + schedule.name + " schedule)");
    const std::string token = fresh_token();
    p.args = {token};
    p.seed = schedule.seed;
    Result<Schedule> chosen = parse_schedule(schedule.name, "schedule");
    if (!chosen) return chosen.status();
    p.schedule = *chosen;
    p.stdout_path = program->string() + ".stdout." + std::to_string(getpid());
    Result<ProgramRun> run = run_program(p, *build);
    if (!run) return run.status();
    Result<std::string> output = read_whole_file(p.stdout_path);
    fs::remove(p.stdout_path, ec);
    const size_t before = report.cases.size();
    read_cases(output ? *output : "", token, schedule.name, run->what, report);
    if (report.cases.size() == before)
      report.problem = run->what.empty()
                           ? "the hidden cases did not run (the program exited with " +
                                 std::to_string(run->exit_code) + ")"
                           : run->what;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tell(1, report.passed() ? "passed" : "failed");
  return report;
}

}  // namespace coop::app
