// Lessons written as ordinary CUDA programs (lessons/<folder>/<folder>.cu and lesson.json): run
// through `coopviz run` with the arguments a lesson's runner passes, a program traces what the
// compiled lesson traces, on every deterministic field and for every step's request (the stores
// its steps show included, through lesson.json's shown_stores), and prints the lesson's checks
// and results, line for line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "device/launch/shown_accesses.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/trace_file.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/program_lesson.hpp"
#include "tests/app/run_coopviz.hpp"
#include "tests/app/trace_lines.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace {

using coop::lessons::LessonDef;
using coop::lessons::RunRequest;

std::string folder_of(const std::string& id) {
  std::string folder = id;
  std::replace(folder.begin(), folder.end(), '-', '_');
  return std::string(COOPVIZ_SOURCE_DIR) + "/lessons/" + folder;
}

nlohmann::json lesson_json(const std::string& id) {
  std::ifstream in(folder_of(id) + "/lesson.json");
  return nlohmann::json::parse(in, nullptr, false);
}

// "[pass] NAME: expected E, got G" for a check; "[result] NAME = VALUE" for a result.
std::string check_line(const coop::lessons::Check& c) {
  return std::string(c.skipped ? "[skip] "
                     : c.pass  ? "[pass] "
                               : "[FAIL] ") +
         c.name + ": expected " + c.expected + ", got " + c.got;
}

std::vector<std::string> tagged_lines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("[pass] ") || line.starts_with("[FAIL] ") || line.starts_with("[skip] ") ||
        line.starts_with("[result] "))
      lines.push_back(line);
  return lines;
}

// The lines the program must print for the compiled lesson's run: its checks and its results,
// each in the order the lesson adds them (a LessonRun keeps the two apart), without coopviz's own
// checks and the benchmark's summary, which the runner adds. A check the lesson makes from its trace (lesson.json's
// trace_checks) the program cannot make: it says so, with the check's name and expected value.
// A check or result the program states as a [trace] claim (`claimed`: the claims' names, each the
// start of the lesson's name, which may go on to name a line of the lesson's own source) is
// settled by coopviz from the program's trace, so it is not among the printed lines; so is a
// result the program states as a [count] (`counted`), which coopviz counts.
struct Expected {
  std::vector<std::string> checks, results;
};
bool claimed_by(const std::string& name, const std::vector<coop::lessons::Check>& claimed) {
  return std::any_of(claimed.begin(), claimed.end(),
                     [&](const coop::lessons::Check& c) { return name.starts_with(c.name); });
}
// What the runner adds for lesson.json's register_caps (app/program/register_caps.hpp), which
// `coopviz run` does not: the kernel's rows and the two checks.
bool added_for_register_caps(const std::string& name, const nlohmann::json& json) {
  if (!json.contains("register_caps")) return false;
  const nlohmann::json& caps = json["register_caps"];
  return name.starts_with(caps.value("kernel", "") + ", ") ||
         name == "every capped build stays within its cap" ||
         name == caps.value("must_spill", nlohmann::json::object()).value("check", "");
}
Expected expected_lines(const coop::lessons::LessonRun& run, const std::set<std::string>& traced,
                        const std::vector<coop::lessons::Check>& claimed,
                        const std::vector<std::pair<std::string, std::string>>& counted,
                        const nlohmann::json& json) {
  Expected e;
  for (const coop::lessons::Check& c : run.checks) {
    if (c.name == "every event recorded" || c.name == coop::lessons::kTimeOrderCheck ||
        claimed_by(c.name, claimed) || added_for_register_caps(c.name, json))
      continue;
    e.checks.push_back(traced.count(c.name) ? "[skip] " + c.name + ": expected " + c.expected +
                                                  ", got counted from the trace by coopviz, not "
                                                  "by the program"
                                            : check_line(c));
  }
  for (const auto& [name, value] : run.results)
    if (!claimed_by(name, claimed) && name != coop::lessons::kBenchmarkResult &&
        !added_for_register_caps(name, json) &&
        std::none_of(counted.begin(), counted.end(), [&](const auto& c) { return c.first == name; }))
      e.results.push_back("[result] " + name + " = " + value);
  return e;
}

class LessonPrograms : public ::testing::TestWithParam<const char*> {};

TEST_P(LessonPrograms, TraceAndCheckAsTheCompiledLessonForEveryStep) {
  const std::string id = GetParam();
  const LessonDef* lesson = coop::lessons::find_lesson(id);
  ASSERT_NE(lesson, nullptr);
  const nlohmann::json json = lesson_json(id);
  ASSERT_TRUE(json.is_object()) << "lesson.json of " << id << " does not parse";
  EXPECT_EQ(json.value("id", ""), lesson->id);
  EXPECT_EQ(json.value("order", -1), lesson->order);
  EXPECT_EQ(json.value("title", ""), lesson->title);
  ASSERT_EQ(json["params"].size(), lesson->params.size());
  for (size_t i = 0; i < lesson->params.size(); ++i) {
    EXPECT_EQ(json["params"][i]["name"], lesson->params[i].name);
    EXPECT_EQ(json["params"][i]["default"], lesson->params[i].default_value);
    EXPECT_EQ(json["params"][i]["min"], lesson->params[i].min);
    EXPECT_EQ(json["params"][i]["max"], lesson->params[i].max);
  }
  const auto names = [&](const char* key) {
    std::vector<std::string> v;
    for (const auto& n : json.value(key, nlohmann::json::array())) v.push_back(n);
    return v;
  };
  const std::string shown = "--show-stores '" + coop::join_shown_buffers(names("shown_stores")) +
                            "' --show-loads '" + coop::join_shown_buffers(names("shown_loads")) +
                            "'" + (json.value("records_blocks", false) ? " --record-blocks" : "");
  const std::vector<std::string> trace_checks = names("trace_checks");

  // The default request and every step's, each distinct one run once.
  std::map<std::vector<std::string>, RunRequest> requests;
  const RunRequest first = coop::testing::lesson_request(*lesson);
  requests.emplace(coop::lessons::program_arguments(*lesson, first, coop::Backend::Emu), first);
  for (const coop::lessons::Step& step : lesson->steps) {
    const RunRequest r = coop::lessons::step_request(*lesson, step);
    requests.emplace(coop::lessons::program_arguments(*lesson, r, coop::Backend::Emu), r);
  }
  const std::string folder = folder_of(id);
  const std::string file = folder + "/" + std::filesystem::path(folder).filename().string() + ".cu";
  const std::string cache =
      (std::filesystem::path(COOPVIZ_BINARY).parent_path() / "program-test-cache").string();
  const std::string trace_file =
      (std::filesystem::temp_directory_path() / (id + "-program.cvt")).string();
  // lesson_protocol.h, which the runner lets every lesson program include, and the launches the
  // runner traces (every one, or lesson.json's "trace_launches").
  const std::string protocol = std::string(COOPVIZ_SOURCE_DIR) + "/lessons/lesson_protocol";
  // Every load and store is recorded where lesson.json's records_memory says (true, or the values
  // of one parameter), as the runner does.
  const nlohmann::json recording = json.value("records_memory", nlohmann::json(false));
  const auto records_memory = [&](const RunRequest& r) {
    if (recording.is_boolean()) return recording.get<bool>();
    for (const auto& [param, values] : recording.items())
      for (const auto& v : values)
        if (r.params.at(param) == v.get<int64_t>()) return true;
    return false;
  };
  for (const auto& [args, request] : requests) {
    std::string joined;
    for (const std::string& a : args) joined += " " + a;
    SCOPED_TRACE(joined);
    const bool memory = records_memory(request);
    const coop::testing::Ran r = coop::testing::run_coopviz_env(
        "XDG_CACHE_HOME=" + cache,
        "run --backend emu " + file + " -I " + protocol + " --trace-launches " +
            json.value("trace_launches", "all") + " --trace " + trace_file + " " + shown +
            (memory ? " --record-memory" : "") + " --" + joined);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    auto program = coop::load_traces(trace_file);
    ASSERT_TRUE(program.ok()) << program.status().message();
    std::filesystem::remove(trace_file);

    auto exec = coop::testing::emulator();
    const coop::lessons::LessonRun run = coop::lessons::run_lesson(*lesson, *exec, request);
    ASSERT_TRUE(run.status.ok()) << run.status.message();
    ASSERT_EQ(program->size(), run.launches.size());
    for (size_t k = 0; k < run.launches.size(); ++k) {
      const coop::Trace& ours = run.launches[k];
      const coop::Trace& theirs = (*program)[k];
      EXPECT_EQ(theirs.header.kernel, ours.header.kernel);
      EXPECT_EQ(theirs.header.launch, ours.header.launch);
      const coop::TraceDiff diff =
          coop::testing::compare_with_program(ours, std::string(lesson->source), theirs);
      EXPECT_TRUE(diff.equal()) << ours.header.kernel << ": " << diff.mismatches
                                << " differences, e.g. "
                                << (diff.examples.empty() ? "" : diff.examples[0]);
      EXPECT_GT(diff.events_compared, 0u);
      // The shown accesses are there, as traced ones: as many loads and stores as the lesson's.
      const auto accesses = [](const coop::Trace& t, coop::EventKind kind) {
        return std::count_if(t.events.begin(), t.events.end(),
                             [&](const coop::Event& e) { return e.kind == kind; });
      };
      for (coop::EventKind kind : {coop::EventKind::Load, coop::EventKind::Store})
        EXPECT_EQ(accesses(theirs, kind), accesses(ours, kind)) << ours.header.kernel;
    }
    // The program's [trace] claims, settled on its own trace as the runner settles them: each
    // holds, as the lesson's check of the same name held.
    coop::lessons::LessonRun claims;
    claims.launches = *program;
    std::string untagged;
    for (std::istringstream in(r.out); std::getline(in, untagged);)
      if (untagged.starts_with("[trace] ") || untagged.starts_with("[count] "))
        coop::lessons::read_program_report(untagged, claims);
    // A [count] is a result coopviz counts in the program's trace: the lesson's of that name,
    // which may go on to say more in parentheses ("8 (one per thread would be 2048)").
    for (const auto& [name, value] : claims.results) {
      const auto ours = std::find_if(run.results.begin(), run.results.end(),
                                     [&](const auto& result) { return result.first == name; });
      ASSERT_NE(ours, run.results.end()) << "the count '" << name << "' is no result of the lesson";
      EXPECT_TRUE(ours->second == value || ours->second.starts_with(value + " ("))
          << name << ": the lesson's " << ours->second << ", the program's " << value;
    }
    for (const coop::lessons::Check& c : claims.checks) {
      EXPECT_TRUE(c.pass) << c.name << ": expected " << c.expected << ", got " << c.got;
      bool answers = false;
      for (const coop::lessons::Check& ours : run.checks)
        if (ours.name.starts_with(c.name)) {
          answers = true;
          EXPECT_TRUE(ours.pass) << ours.name;
        }
      for (const auto& result : run.results) answers |= result.first.starts_with(c.name);
      EXPECT_TRUE(answers) << "the claim '" << c.name << "' answers no check or result of the lesson";
    }
    const Expected expected =
        expected_lines(run, std::set<std::string>(trace_checks.begin(), trace_checks.end()),
                       claims.checks, claims.results, json);
    std::vector<std::string> checks, results;
    for (const std::string& line : tagged_lines(r.out))
      (line.starts_with("[result] ") ? results : checks).push_back(line);
    EXPECT_EQ(checks, expected.checks);
    EXPECT_EQ(results, expected.results);
  }
}

// The lessons being moved whose compiled lesson is still there to compare with: none now
// (atomics-and-races and occupancy, the last two, are programs alone). A lesson is held here while its program and
// its lesson.cpp are both in its folder.
const std::vector<const char*> kLessonsBeingMoved = {};
INSTANTIATE_TEST_SUITE_P(Emulator, LessonPrograms, ::testing::ValuesIn(kLessonsBeingMoved),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LessonPrograms);

// A program refuses what its lesson cannot run: one "error:" line, exit status 2.
TEST(LessonPrograms, ArgumentsTheLessonCannotRunAreOneErrorLine) {
  const std::string file = folder_of("tiled-partitions") + "/tiled_partitions.cu";
  const std::string cache =
      (std::filesystem::path(COOPVIZ_BINARY).parent_path() / "program-test-cache").string();
  for (const auto& [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"--block=96", "block 96,1,1 has 96 threads, not a multiple of 128"},
           {"--tile=3", "tile must be a power of two from 1 to 32: got 3"},
           {"--tiles=4", "unknown argument '--tiles=4'"}}) {
    const coop::testing::Ran r = coop::testing::run_coopviz_env(
        "XDG_CACHE_HOME=" + cache, "run --backend emu " + file + " -- " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  }
}

}  // namespace
