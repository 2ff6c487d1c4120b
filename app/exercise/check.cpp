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

#include "app/exercise/counts.hpp"
#include "app/exercise/exercise.hpp"
#include "app/exercise/first_difference.hpp"
#include "app/program/program.hpp"
#include "device/paths/data_dirs.hpp"
#include "device/trace/trace_file.hpp"

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

// Where a case of the report ran: its schedule, its number in that run (the harness's case
// filter), and the program's traced launches it made [first, end).
struct CasePlace {
  size_t schedule = 0;
  long number = 0;
  long first_launch = -1, end_launch = -1;
};

// The cases the program printed; a case it began and never finished is failed with `stopped`
// (the runner's words for how the program ended), and so is the program that printed no case.
void read_cases(const std::string& output, const std::string& token, size_t schedule_index,
                const std::string& stopped, CheckReport& report, std::vector<CasePlace>& places) {
  const std::string& schedule = check_schedules()[schedule_index].name;
  long number = 0;
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
      if (open) {
        report.cases.back() = case_from(j, schedule);
        const nlohmann::json launches = j.value("launches", nlohmann::json::array());
        if (launches.size() == 2 && launches[0].is_number() && launches[1].is_number()) {
          places.back().first_launch = launches[0].get<long>();
          places.back().end_launch = launches[1].get<long>();
        }
      }
      open = false;
      continue;
    }
    CaseResult c = case_from(j, schedule);
    c.passed = false;
    c.problem = stopped.empty() ? "the case did not finish" : stopped;
    report.cases.push_back(c);
    places.push_back({schedule_index, number++});
    open = true;
  }
}

// Fails the cases of one run whose launches break a count rule, saying which rule and where.
// Their launches are read from the run's trace; a case that failed already keeps its reason.
Status apply_count_rules(const std::vector<CountRule>& rules, const std::string& trace_path,
                         size_t from, CheckReport& report, const std::vector<CasePlace>& places) {
  Result<std::vector<Trace>> traces = load_traces(trace_path);
  if (!traces) return Status::error("cannot count the events of the cases: " + traces.message());
  for (size_t c = from; c < report.cases.size(); ++c) {
    CaseResult& result = report.cases[c];
    if (!result.passed) continue;
    if (places[c].end_launch < 0) {
      result.passed = false;  // nothing to count is no proof of the count
      result.problem = "the case did not say which launches it made, so they cannot be counted";
      continue;
    }
    for (long l = std::max(0L, places[c].first_launch);
         l < places[c].end_launch && l < long(traces->size()); ++l) {
      const std::string broken = broken_count(rules, (*traces)[size_t(l)]);
      if (broken.empty()) continue;
      result.passed = false;
      result.problem = broken;
      break;
    }
  }
  return {};
}

// Runs case `number` alone under `schedule`, recording every event (loads and stores too) into
// `trace_path`; a case that launched nothing leaves no file there.
Status trace_case(ProgramOptions p, const ProgramBuild& build, const CheckSchedule& schedule,
                  long number, const fs::path& trace_path) {
  p.args = {fresh_token(), std::to_string(number)};
  p.seed = schedule.seed;
  Result<Schedule> chosen = parse_schedule(schedule.name, "schedule");
  if (!chosen) return chosen.status();
  p.schedule = *chosen;
  p.trace_out = trace_path.string();
  p.record_memory = true;
  p.stdout_path = trace_path.string() + ".stdout." + std::to_string(getpid());
  Result<ProgramRun> run = run_program(p, build);
  std::error_code ec;
  fs::remove(p.stdout_path, ec);
  return run ? Status{} : run.status();
}

// The reference solution's trace of case `number` under `schedule`: built and run once, then
// kept beside its build in the program cache.
Result<fs::path> reference_trace(const Exercise& e, ProgramOptions p, const CheckSchedule& schedule,
                                 long number) {
  Result<std::string> text = check_program(e, e.solution().string());
  if (!text) return text.status();
  Result<fs::path> program = write_check_program(*text);
  if (!program) return program.status();
  const fs::path trace =
      program->parent_path() / ("case-" + schedule.name + "-" + std::to_string(schedule.seed) +
                                "-" + std::to_string(number) + ".cvt");
  std::error_code ec;
  if (fs::exists(trace, ec)) return trace;
  p.file = program->string();
  p.includes = {e.folder.string()};
  Result<ProgramBuild> build = build_program(p);
  if (!build) return Status::error("the reference solution did not build: " + build.message());
  if (Status s = trace_case(p, *build, schedule, number, trace); !s) return s;
  if (!fs::exists(trace, ec)) return Status::error("the reference solution launched nothing");
  return trace;
}

// Gives the traced launches the student's own file as their source: their lines are that file's
// (check_program's #line), not the check program's, which holds the hidden cases too.
Status show_student_source(const fs::path& trace_path, const std::string& file) {
  Result<std::vector<Trace>> traces = load_traces(trace_path.string());
  if (!traces) return traces.status();
  Result<std::string> text = read_whole_file(file);
  if (!text) return text.status();
  for (Trace& t : *traces) {
    t.header.source_file = fs::path(file).filename().string();
    t.header.source = *text;
  }
  return save_traces(trace_path.string(), *traces);
}

// Points the first failing case at the thread and event where the student's trace of it first
// departs from the reference solution's trace of the same case under the same schedule.
void explain_first_failure(const Exercise& e, const ProgramOptions& p, const ProgramBuild& build,
                           const std::vector<CasePlace>& places, CheckReport& report) {
  size_t c = 0;
  while (c < report.cases.size() && report.cases[c].passed) ++c;
  if (c == report.cases.size()) return;
  CaseResult& failed = report.cases[c];
  const CheckSchedule& schedule = check_schedules()[places[c].schedule];
  const fs::path mine = fs::path(p.file).parent_path() /
                        ("case-" + schedule.name + "-" + std::to_string(schedule.seed) + "-" +
                         std::to_string(places[c].number) + ".cvt");
  std::error_code ec;
  fs::remove(mine, ec);
  Status traced = trace_case(p, build, schedule, places[c].number, mine);
  // A case whose code launched nothing (a host-side mistake) is compared as no launches.
  const bool launched = traced && fs::exists(mine, ec);
  if (launched) traced = show_student_source(mine, report.file);
  if (!traced) {
    failed.first_difference.what = "the case could not be traced: " + traced.message();
    return;
  }
  if (launched) failed.trace_path = mine.string();
  Result<fs::path> theirs = reference_trace(e, p, schedule, places[c].number);
  Result<std::vector<Trace>> student =
      launched ? load_traces(mine.string()) : Result<std::vector<Trace>>(std::vector<Trace>{});
  Result<std::vector<Trace>> reference =
      theirs ? load_traces(theirs->string()) : Result<std::vector<Trace>>(theirs.status());
  if (!student || !reference) {
    failed.first_difference.what =
        "no trace to compare: " + (student ? reference.message() : student.message());
    return;
  }
  failed.first_difference = first_difference(*student, *reference);
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
  p.check_memory = true;  // a read of memory never written fails the case at its line
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
  Result<std::vector<CountRule>> rules = read_count_rules(e.counts());
  if (!rules) return rules.status();
  std::vector<CasePlace> places;

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
    // The count rules read the lockstep run's trace: there a warp's active lanes run together,
    // as the exercises' specs count them.
    const bool count = !rules->empty() && schedule.name == "lockstep";
    p.trace_out = count ? program->string() + ".counts." + std::to_string(getpid()) + ".cvt" : "";
    p.record_memory = count && counts_need_memory(*rules);
    Result<ProgramRun> run = run_program(p, *build);
    if (!run) return run.status();
    Result<std::string> output = read_whole_file(p.stdout_path);
    fs::remove(p.stdout_path, ec);
    const size_t before = report.cases.size();
    read_cases(output ? *output : "", token, k, run->what, report, places);
    if (count) {
      const Status counted = apply_count_rules(*rules, p.trace_out, before, report, places);
      fs::remove(p.trace_out, ec);
      if (!counted && report.cases.size() > before) report.problem = counted.message();
    }
    if (report.cases.size() == before)
      report.problem = run->what.empty()
                           ? "the hidden cases did not run (the program exited with " +
                                 std::to_string(run->exit_code) + ")"
                           : run->what;
  }
  p.trace_out.clear();
  p.record_memory = false;
  if (!report.passed() && !report.cases.empty()) {
    tell(0.95, "tracing the first failing case and the reference's");
    explain_first_failure(e, p, *build, places, report);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tell(1, report.passed() ? "passed" : "failed");
  return report;
}

}  // namespace coop::app
