#include "app/exercise/case_runs.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "device/trace/trace_file.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

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

// Whether a message is about the case the checker expects there.
bool is_case(const nlohmann::json& body, long number, const ExpectedCase& want) {
  return body.value("number", -1L) == number && body.value("launch", "") == want.launch &&
         body.value("input", "") == want.input;
}

// The words for a case's data races, each pair of lines said in full the first time in the
// check (`named` holds those) and named again after that; empty when it has none.
std::string race_words(const nlohmann::json& races, const std::string& file,
                       std::set<std::string>& named) {
  std::string words;
  if (!races.is_array()) return words;
  for (const nlohmann::json& r : races) {
    if (!r.is_object() || !r.contains("first") || !r.contains("second")) continue;
    // The pair either way round is one race: which access came first is the schedule's choice.
    const int a = r["first"].value("line", 0), b = r["second"].value("line", 0);
    const std::string lines = file + ":" + std::to_string(std::min(a, b)) + " and " + file + ":" +
                              std::to_string(std::max(a, b));
    const bool first_time = named.insert(lines).second;
    words +=
        (words.empty() ? "" : "; ") + (first_time ? "a data race: " + r.value("text", lines)
                                                  : "the same data race again (" + lines + ")");
  }
  return words;
}

// A case's problem (a deadlock, a fault: the runtime's words at the student's lines) in full the
// first time the check meets it, then named again by its first line and the lines of `file` it
// names: the same deadlock in every case would otherwise fill the report. `said` keeps those.
std::string problem_words(const std::string& problem, const std::string& file,
                          std::set<std::string>& said) {
  const std::string first = problem.substr(0, problem.find('\n'));
  std::string lines;
  for (size_t at = problem.find(file + ":"); !file.empty() && at != std::string::npos;
       at = problem.find(file + ":", at + 1)) {
    size_t end = at + file.size() + 1;
    while (end < problem.size() && std::isdigit(static_cast<unsigned char>(problem[end]))) ++end;
    const std::string line = problem.substr(at, end - at);
    if (lines.find(line) == std::string::npos) lines += (lines.empty() ? "" : ", ") + line;
  }
  if (first == problem && lines.empty()) return problem;  // one line that names no line
  if (said.insert("problem: " + first + " at " + lines).second) return problem;
  return "again: " + first + (lines.empty() ? "" : " (at " + lines + ")");
}

}  // namespace

void add_not_run(const std::vector<ExpectedCase>& expected, size_t from, size_t schedule_index,
                 const std::string& why, CheckReport& report, std::vector<CasePlace>& places) {
  for (size_t k = from; k < expected.size(); ++k) {
    CaseResult c;
    c.schedule = check_schedules()[schedule_index].name;
    c.launch = expected[k].launch;
    c.input = expected[k].input;
    c.problem = "not run: " + why;
    report.cases.push_back(c);
    places.push_back({schedule_index, long(k)});
  }
}

void read_run(const CaseChannel& channel, const std::vector<ExpectedCase>& expected,
              size_t schedule_index, const ProgramRun& run, std::set<std::string>& races_named,
              CheckReport& report, std::vector<CasePlace>& places) {
  const std::string& schedule = check_schedules()[schedule_index].name;
  const std::string file = fs::path(report.file).filename().string();
  const std::string stopped = run.what.empty() ? "the case did not finish" : run.what;
  size_t next = 0;  // the expected case the next "begin" must be
  bool open = false, ended = false;
  std::string wrong;
  for (const CaseMessage& m : channel.messages()) {
    if (m.kind == "end") {
      ended = !open && m.body.value("cases", -1L) == long(next);
      break;
    }
    const long number = long(next) - (m.kind == "case" ? 1 : 0);
    const bool expected_here = number >= 0 && size_t(number) < expected.size() &&
                               is_case(m.body, number, expected[size_t(number)]);
    if (!expected_here || (m.kind == "case") != open || (m.kind != "case" && m.kind != "begin")) {
      wrong = "the " + schedule + " run reported " + case_words(m.body) +
              " where the checker launched " +
              (size_t(number) < expected.size() && number >= 0
                   ? "case " + std::to_string(number) + " (" + expected[size_t(number)].launch +
                         ", input " + expected[size_t(number)].input + ")"
                   : "no case") +
              "; the check does not trust it";
      break;
    }
    if (m.kind == "begin") {
      CaseResult c = case_from(m.body, schedule);
      c.passed = false;
      c.problem = stopped;
      report.cases.push_back(c);
      places.push_back({schedule_index, number});
      open = true;
      ++next;
      continue;
    }
    CaseResult& c = report.cases.back();
    c = case_from(m.body, schedule);
    if (!c.problem.empty()) c.problem = problem_words(c.problem, file, races_named);
    c.cpu_seconds = m.cpu_seconds;
    const nlohmann::json launches = m.body.value("launches", nlohmann::json::array());
    if (launches.size() == 2 && launches[0].is_number() && launches[1].is_number()) {
      places.back().first_launch = launches[0].get<long>();
      places.back().end_launch = launches[1].get<long>();
    }
    if (std::string races =
            race_words(m.body.value("races", nlohmann::json::array()), file, races_named);
        !races.empty()) {
      c.passed = false;
      c.problem = races;
    }
    open = false;
  }
  const size_t ran = next;
  // A process the program leaves behind outlives the check and may change what the next case
  // or check sees: no case of this run can pass, whatever its outputs.
  if (run.left_running > 0) {
    const std::string left = file + ": the program left " + std::to_string(run.left_running) +
                             (run.left_running == 1 ? " process" : " processes") +
                             " it started still running when it ended (ended by the check): "
                             "a program must wait for every process it starts";
    for (size_t c = report.cases.size() - std::min(report.cases.size(), ran);
         c < report.cases.size(); ++c)
      if (report.cases[c].passed) report.cases[c].passed = false, report.cases[c].problem = left;
  }
  add_not_run(expected, next, schedule_index, "the program had stopped before this case", report,
              places);
  if (!wrong.empty())
    report.problem = wrong;
  else if (!open && ran < expected.size() && !run.what.empty() && report.problem.empty())
    report.problem = run.what;  // it stopped outside any case: no case to say it
  else if (!ended && run.what.empty() && report.problem.empty())
    report.problem = "the " + schedule + " run ended after " + std::to_string(ran) + " of the " +
                     std::to_string(expected.size()) +
                     " hidden cases without the harness's last word (the program exited with " +
                     std::to_string(run.exit_code) + "): the check does not trust it";
}

std::string imitation_in(const std::string& path) {
  Result<std::string> text = read_whole_file(path);
  if (!text) return "";
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);)
    if (line.find("@coopviz-") != std::string::npos) return line.substr(0, 80);
  return "";
}

Status apply_count_rules(const std::vector<CountRule>& rules, const std::string& trace_path,
                         size_t from, CheckReport& report, const std::vector<CasePlace>& places) {
  // Cases that already failed need no counting: a run that ended before its first launch (a
  // forged report, an early exit) leaves no trace to count, and its failure says why.
  bool any_passed = false;
  for (size_t c = from; c < report.cases.size(); ++c) any_passed |= report.cases[c].passed;
  if (!any_passed) return {};
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

}  // namespace coop::app
