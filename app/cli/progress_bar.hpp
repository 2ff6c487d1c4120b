// A one-line progress bar on stderr for long commands (benchmarks). It draws only when stderr is
// a terminal, so redirected output (JSON into a file, logs) stays clean.
#pragma once

#include <string>

namespace coop::app {

class ProgressBar {
 public:
  ProgressBar();
  ~ProgressBar();  // ends the line if one was drawn
  // fraction 0..1 of the work done, and what is running now.
  void update(double fraction, const std::string& stage);
  void finish();

 private:
  bool enabled_ = false;
  bool drawn_ = false;
};

}  // namespace coop::app
