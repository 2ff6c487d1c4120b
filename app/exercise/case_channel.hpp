// The private channel a check's program reports its hidden cases through (the protocol is in
// lessons/exercise_harness/exercise_harness.cuh): a pipe whose write end only that program
// inherits, a token fresh for each run, and the program's CPU time, measured here case by case,
// so that a case's time limit does not depend on how busy the machine is.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/exercise/exercise.hpp"
#include "app/program/program.hpp"

namespace coop::app {

// One message of the harness: "begin" (a case starts), "case" (its result) or "end".
struct CaseMessage {
  std::string kind;
  nlohmann::json body;
  double cpu_seconds = 0;  // for a "case": the CPU time the program used since its "begin"
};

class CaseChannel {
 public:
  explicit CaseChannel(CheckLimits limits = {});
  ~CaseChannel();
  CaseChannel(const CaseChannel&) = delete;
  CaseChannel& operator=(const CaseChannel&) = delete;

  // Opens the pipe and sets `p` up to run with it: the descriptor and the token in the program's
  // environment (with `more` variables: "COOPVIZ_CASES_ONLY", ...), and a watcher that reads the
  // messages as they come and stops a case past its limits, naming it.
  Status attach(ProgramOptions& p,
                const std::vector<std::pair<std::string, std::string>>& more = {});
  // After the run: reads what is left and closes the pipe.
  void finish();

  const std::vector<CaseMessage>& messages() const { return messages_; }
  // Lines on the channel that did not start with this run's token: not the harness's.
  size_t foreign_lines() const { return foreign_; }
  // Whether the watcher stopped the program for a case past its time.
  bool stopped_for_time() const { return stopped_for_time_; }

 private:
  std::string watch(int pid);
  void drain();
  void take(const std::string& line, int pid);

  CheckLimits limits_;
  int read_fd_ = -1, write_fd_ = -1;
  std::string token_, pending_;
  std::vector<CaseMessage> messages_;
  size_t foreign_ = 0;
  bool stopped_for_time_ = false;
  // The case that runs now ("" between cases), and the program's CPU and wall clocks when it
  // (or the time outside any case) began.
  std::string running_;
  double cpu_from_ = 0, wall_from_ = -1;
  int pid_ = 0;
};

// A case as the messages name it: "case 3 (grid 4 x block 128, n 2000, input random)".
std::string case_words(const nlohmann::json& body);

}  // namespace coop::app
