// Reading one run of a check's program: the cases its harness reported through the check's
// channel, held to the cases the checker launched, with their data races and count rules.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/exercise/case_channel.hpp"
#include "app/exercise/counts.hpp"
#include "app/exercise/exercise.hpp"

namespace coop::app {

// A case the checker launches: its words for the launch and the input.
struct ExpectedCase {
  std::string launch, input;
};

// Where a case of the report ran: its schedule, its number in that run (the harness's case
// filter), and the program's traced launches it made [first, end).
struct CasePlace {
  size_t schedule = 0;
  long number = 0;
  long first_launch = -1, end_launch = -1;
};

// The cases of one run as the harness reported them, each checked to be the case the checker
// launched there (`expected`, in order), added to `report` and `places`. A case that began and
// never finished fails with the runner's words for how the program ended; every expected case
// it never reached fails as not run; a case whose data races the harness found fails with them,
// each pair of lines in full the first time in the check (`races_named` keeps those, and the
// problems of cases, said in full once and then named by their first line); every case of a run
// whose program left a process running fails, saying so. A run that reported another case than
// the expected one, or ended early without saying why, is the report's problem.
void read_run(const CaseChannel& channel, const std::vector<ExpectedCase>& expected,
              size_t schedule_index, const ProgramRun& run, std::set<std::string>& races_named,
              CheckReport& report, std::vector<CasePlace>& places);

// Fails the expected cases from `from` on of a run under schedule `schedule_index` as not run,
// saying `why`.
void add_not_run(const std::vector<ExpectedCase>& expected, size_t from, size_t schedule_index,
                 const std::string& why, CheckReport& report, std::vector<CasePlace>& places);

// The first line of the file at `path` (the program's own output) that imitates the harness's
// messages (an "@coopviz-" line), cut to 80 characters; "" when there is none.
std::string imitation_in(const std::string& path);

// Fails the cases of one run, from index `from` of the report, whose launches break a count
// rule, saying which rule and where; their launches are read from the run's trace. A case that
// failed already keeps its reason.
Status apply_count_rules(const std::vector<CountRule>& rules, const std::string& trace_path,
                         size_t from, CheckReport& report, const std::vector<CasePlace>& places);

}  // namespace coop::app
