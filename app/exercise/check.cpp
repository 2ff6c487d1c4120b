// Checking a student's file: one program made of the student's file (its main() renamed), the
// cases' harness and the exercise's cases.cu, built and run like `coopviz run FILE.cu`, which
// reports its cases through a channel of its own (app/exercise/case_channel.hpp), never through
// its output. The cases to expect are the reference solution's, listed by the same harness.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "app/exercise/case_channel.hpp"
#include "app/exercise/case_runs.hpp"
#include "app/exercise/counts.hpp"
#include "app/exercise/exercise.hpp"
#include "app/exercise/first_difference.hpp"
#include "app/program/program.hpp"
#include "device/paths/data_dirs.hpp"
#include "device/trace/trace_file.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

// The whole run's wall-clock bound, and the emulator's on one launch, a last resort: the case
// channel's watcher stops a case long before, by its CPU time.
constexpr double kRunTimeoutSeconds = 3600;
constexpr const char* kNoLimit = "3600";

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
  // The harness names races' lines in the student's file by its name.
  std::string name;
  for (char c : fs::path(file).filename().string())
    name += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return "#define main coopviz_student_main\n" + as_file(file, *student) + "#undef main\n" +
         "#define COOPVIZ_STUDENT_FILE \"" + name + "\"\n" + as_file(harness_path.string(), h) +
         as_file((e.folder / "cases.cu").string(), *cases);
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

// Runs the built check program once under `schedule`, reporting through `channel` (`more`: the
// harness's other variables); its own output and errors go to files, from which `imitation`
// gets the first line that imitates the harness's messages.
Result<ProgramRun> run_under(ProgramOptions p, const ProgramBuild& build,
                             const CheckSchedule& schedule, CaseChannel& channel,
                             const std::vector<std::pair<std::string, std::string>>& more,
                             std::string* imitation = nullptr) {
  p.seed = schedule.seed;
  Result<Schedule> chosen = parse_schedule(schedule.name, "schedule");
  if (!chosen) return chosen.status();
  p.schedule = *chosen;
  p.args.clear();
  p.timeout_seconds = kRunTimeoutSeconds;
  const std::string base = p.file + "." + std::to_string(getpid());
  p.stdout_path = base + ".stdout";
  p.stderr_path = base + ".stderr";
  if (Status s = channel.attach(p, more); !s) return s;
  Result<ProgramRun> run = run_program(p, build);
  channel.finish();
  for (const std::string& path : {p.stdout_path, p.stderr_path}) {
    if (imitation && imitation->empty()) *imitation = imitation_in(path);
    std::error_code ec;
    fs::remove(path, ec);
  }
  return run;
}

// Runs case `number` alone under `schedule`, recording every event (loads and stores too) into
// `trace_path`; a case that launched nothing leaves no file there.
Status trace_case(ProgramOptions p, const ProgramBuild& build, const CheckSchedule& schedule,
                  long number, const fs::path& trace_path, const CheckLimits& limits = {}) {
  p.trace_out = trace_path.string();
  p.record_memory = true;
  CaseChannel channel(limits);
  Result<ProgramRun> run = run_under(
      p, build, schedule, channel,
      {{"COOPVIZ_CASES_ONLY", std::to_string(number)}, {"COOPVIZ_LAUNCH_TIMEOUT", kNoLimit}});
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

// The hidden cases the checker launches, in order: the reference solution's check program lists
// them (the harness's list mode runs none), once, and they are kept beside its build.
Result<std::vector<ExpectedCase>> expected_cases(const Exercise& e, ProgramOptions p) {
  Result<std::string> text = check_program(e, e.solution().string());
  if (!text) return text.status();
  Result<fs::path> program = write_check_program(*text);
  if (!program) return program.status();
  const fs::path kept = program->parent_path() / "cases.json";
  const Result<std::string> listed = read_whole_file(kept);
  nlohmann::json list = nlohmann::json::parse(listed ? *listed : "", nullptr, false);
  if (!list.is_array()) {
    p.file = program->string();
    p.includes = {e.folder.string()};
    p.trace_out.clear();
    p.record_memory = false;
    Result<ProgramBuild> build = build_program(p);
    if (!build) return Status::error("the reference solution did not build: " + build.message());
    CaseChannel channel;
    Result<ProgramRun> run =
        run_under(p, *build, check_schedules().front(), channel, {{"COOPVIZ_CASES_LIST", "1"}});
    if (!run) return run.status();
    list = nlohmann::json::array();
    for (const CaseMessage& m : channel.messages())
      if (m.kind == "case") list.push_back({m.body.value("launch", ""), m.body.value("input", "")});
    if (list.empty() || !run->what.empty() || channel.foreign_lines() > 0)
      return Status::error("the reference solution of " + e.id + " did not list its cases" +
                           (run->what.empty() ? "" : ": " + run->what));
    const fs::path partial = kept.string() + "." + std::to_string(getpid());
    std::ofstream(partial) << list.dump();
    std::error_code ec;
    fs::rename(partial, kept, ec);
  }
  std::vector<ExpectedCase> out;
  for (const nlohmann::json& c : list)
    if (c.is_array() && c.size() == 2 && c[0].is_string() && c[1].is_string())
      out.push_back({c[0].get<std::string>(), c[1].get<std::string>()});
  return out;
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
                           const std::vector<CasePlace>& places, const CheckLimits& limits,
                           CheckReport& report) {
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
  // Under the check's limits: a case that ran past its time does so again, no longer.
  Status traced = trace_case(p, build, schedule, places[c].number, mine, limits);
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
  failed.first_difference = first_difference(*student, *reference, failed.problem);
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
                                   const CheckProgress& progress, const CheckLimits& limits) {
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
  p.check_memory = true;  // a read of memory never written fails the case at its line
  // The race detector and the count rules read every launch of every case.
  p.trace_launches = "all";
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

  tell(0.4, "listing the hidden cases");
  Result<std::vector<ExpectedCase>> expected = expected_cases(e, p);
  if (!expected) return expected.status();
  std::set<std::string> races_named;
  const std::vector<CheckSchedule>& schedules = check_schedules();
  // A run the check cannot trust ends it: later runs would only say so again.
  for (size_t k = 0; k < schedules.size() && report.problem.empty(); ++k) {
    const CheckSchedule& schedule = schedules[k];
    tell(0.5 + 0.5 * double(k) / double(schedules.size()),
         "running the hidden cases (" + schedule.name + " schedule)");
    // The count rules read the lockstep run's trace: there a warp's active lanes run together,
    // as the exercises' specs count them.
    const bool count = !rules->empty() && schedule.name == "lockstep";
    p.trace_out = count ? program->string() + ".counts." + std::to_string(getpid()) + ".cvt" : "";
    // Every case is the race detector's too, which needs every load and store of every launch.
    p.record_memory = true;
    CaseChannel channel(limits);
    std::string imitation;
    Result<ProgramRun> run =
        run_under(p, *build, schedule, channel,
                  {{"COOPVIZ_RACES", "1"}, {"COOPVIZ_LAUNCH_TIMEOUT", kNoLimit}}, &imitation);
    if (!run) return run.status();
    const size_t before = report.cases.size();
    read_run(channel, *expected, k, *run, races_named, report, places);
    if (!imitation.empty())
      report.problem = "your program printed a line in the checker's format; the check does not "
                       "trust it: " + imitation;
    if (channel.foreign_lines() > 0)
      report.problem = "something other than the checker's harness wrote to its private "
                       "channel; the check does not trust it";
    if (count) {
      const Status counted = apply_count_rules(*rules, p.trace_out, before, report, places);
      std::error_code removed;
      fs::remove(p.trace_out, removed);
      if (!counted && report.cases.size() > before && run->what.empty())
        report.problem = counted.message();
    }
    // A case past its time would be again under the later schedules, which order more steps.
    if (channel.stopped_for_time()) {
      for (size_t later = k + 1; later < schedules.size(); ++later)
        add_not_run(*expected, 0, later,
                    "a case ran past its time under the " + schedule.name + " schedule", report,
                    places);
      break;
    }
  }
  p.trace_out.clear();
  p.record_memory = false;
  if (!report.passed() && !report.cases.empty() && report.problem.empty()) {
    tell(0.95, "tracing the first failing case and the reference's");
    explain_first_failure(e, p, *build, places, limits, report);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tell(1, report.passed() ? "passed" : "failed");
  return report;
}

}  // namespace coop::app
