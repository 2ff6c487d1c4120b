// `coopviz run FILE.cu`: a user's own CUDA program on the emulator (app/program).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "app/backend.hpp"
#include "app/cli/schedule_options.hpp"
#include "device/launch/shown_accesses.hpp"
#include "device/trace/trace.hpp"

namespace coop::app {

struct RunProgramOptions {
  std::string file;
  std::vector<std::string> other_files;  // ProgramOptions::other_files
  std::vector<std::string> includes, defines, args;
  std::vector<std::string> launches;  // --launch KERNEL=GRID/BLOCK
  BackendRequest backend = BackendRequest::Auto;
  std::string emulate;
  std::string trace_path;
  ScheduleOptions emu;  // --schedule and --seed (the emulator's)
  uint64_t trace_capacity = 1u << 22;
  bool json = false;
  bool record_memory = false;  // every shared/global load and store, with the access analysis
  bool races = false;          // record them all and report data races (race_detector.hpp)
  bool check_memory = false;   // stop at a read of memory never written (ProgramOptions)
  ShownAccesses shown;         // plain accesses built as traced ones (ProgramOptions)
  double timeout_seconds = 120;
  uint64_t memory_limit = 0;  // bytes; 0: ProgramOptions' default
  std::string trace_launches = "first";  // ProgramOptions::trace_launches
  bool vary_repeats = false;             // ProgramOptions::vary_repeats
  bool relocatable_device_code = false;  // ProgramOptions::relocatable_device_code
  uint64_t trace_memory = 0;             // bytes; 0: ProgramOptions' default
  std::string* output = nullptr;  // collects what the program prints (ProgramOptions::output)
  // Receives the compiler's output when the build fails (the window marks its errors' lines).
  std::string* compiler_output = nullptr;
};

// "299 launches ran untraced (repeats of traced ones: kernel k x299); --trace-launches all
// traces them", with launches too large to trace and those of Thrust's or CUB's kernels, or "" when
// every launch was traced.
std::string untraced_note(std::span<const Trace> launches);

// `--races` without --json: one line per race of each launch, or that none was found; over
// launches that dropped events, that the verdict is incomplete.
void print_races(std::span<const Trace> launches, std::ostream& out);

// Whether every launch kept all its events, so that a race report covers every access.
inline bool races_complete(std::span<const Trace> launches) {
  for (const Trace& t : launches)
    if (t.dropped()) return false;
  return true;
}

// "launch 3 (kernel k): 4,194,304 events recorded, 4,194,304 dropped: raise --trace-capacity"
// for the launch at `index` (from 0) when it dropped events, else "".
std::string dropped_events_note(const Trace& t, size_t index);

// Builds and runs the program; returns the exit status coopviz should exit with (the program's
// own, or coopviz's codes when it could not be built or run). `ran` (if given) says whether the
// program ran, so that its trace (options.trace_path) exists.
int run_program_command(const RunProgramOptions& options, bool* ran = nullptr);

}  // namespace coop::app
