// A user's program kept live: when the file or a header beside it is saved, it is rebuilt and
// rerun in the background, and the new trace (or what went wrong) is handed back. The window
// polls it every frame.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "app/program/program.hpp"

namespace coop::app {

class ProgramWatcher {
 public:
  // `options.trace_out` is where each rerun writes its launches. The sources as they are now
  // count as seen: only a later save starts a rebuild.
  explicit ProgramWatcher(ProgramOptions options, double check_every_seconds = 0.5);
  ~ProgramWatcher();
  ProgramWatcher(const ProgramWatcher&) = delete;
  ProgramWatcher& operator=(const ProgramWatcher&) = delete;

  struct Outcome {
    bool ok = false;      // built and ran (the program's own exit status may still be non-zero)
    std::string message;  // what happened, in words; a build failure's compiler output
    std::string trace;    // the trace file, when ok
  };
  // Starts a rebuild when the sources changed since the last one; returns one that finished.
  std::optional<Outcome> poll(double now);
  bool busy() const { return busy_; }
  const std::string& file() const { return options_.file; }

 private:
  uint64_t fingerprint() const;  // the file's and its sibling headers' modification times

  ProgramOptions options_;
  double every_, next_check_ = 0;
  uint64_t seen_ = 0;
  std::thread worker_;
  std::atomic<bool> busy_{false}, finished_{false};
  Outcome result_;
};

}  // namespace coop::app
