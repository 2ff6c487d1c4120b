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
    bool saved = true;    // a save started it (else a change of the launch overrides)
    bool compiled = true;  // false: the build failed and `message` is the compiler's output
    std::string output;    // what the program printed (ProgramOptions::output), when it ran
  };
  // Starts a rebuild when the sources changed since the last one; returns one that finished.
  std::optional<Outcome> poll(double now);
  bool busy() const { return busy_; }
  const std::string& file() const { return options_.file; }
  // Runs the program again (at the next poll, once a run in progress is done) with these launch
  // overrides, and keeps them for later reruns. The build is the same: only the run is redone.
  void set_launch_overrides(std::vector<LaunchOverride> overrides);
  // The overrides of the latest set_launch_overrides (or of the options at the start).
  const std::vector<LaunchOverride>& launch_overrides() const { return wanted_overrides_; }
  // Runs the program again (as set_launch_overrides does) recording every load and store or not.
  // They are seen on the emulator only: a program built for the GPU is built for the emulator
  // while they are recorded.
  void set_record_memory(bool on);
  bool record_memory() const { return wanted_record_memory_; }
  // A rerun asked for by set_launch_overrides has not started yet.
  bool rerun_wanted() const { return rerun_wanted_; }
  // The device the program runs on, whose limits an override must respect.
  const DeviceProps& device() const { return device_; }

 private:
  uint64_t fingerprint() const;  // the file's and its sibling headers' modification times

  ProgramOptions options_;  // read by the worker while busy: changed only between runs
  std::vector<LaunchOverride> wanted_overrides_;
  bool wanted_record_memory_ = false;
  std::string gpu_arch_;  // the options' at the start: the GPU the program runs on when it may
  bool rerun_wanted_ = false;
  DeviceProps device_;
  double every_, next_check_ = 0;
  uint64_t seen_ = 0;
  std::thread worker_;
  std::atomic<bool> busy_{false}, finished_{false};
  Outcome result_;
};

}  // namespace coop::app
