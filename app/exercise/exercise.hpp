// Exercises: a spec, a starter with a hole, a reference solution and hidden cases, in the
// lesson's folder (lessons/<folder>/exercises/<id>/, see lessons/README.md). The command line
// (`coopviz exercise ...`) and any window call this library; it knows nothing of either.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "device/launch/result.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {

struct Exercise {
  std::string id;                  // its folder's name, unique over all lessons ("block-sum")
  std::string lesson;              // the lesson's id ("block-reduce")
  std::string title;               // exercise.md's "# " line
  std::string spec;                // exercise.md between the title and the first hint
  std::vector<std::string> hints;  // each "## Hint" section, in order (at most three)
  std::filesystem::path folder;    // where starter.cu, solution.cu and cases.cu are
  std::filesystem::path starter() const { return folder / "starter.cu"; }
  std::filesystem::path solution() const { return folder / "solution.cu"; }
  // Optional: events the hidden cases count in the trace (lessons/README.md, "Count checks").
  std::filesystem::path counts() const { return folder / "counts.json"; }
};

// Every exercise coopviz has, in lesson order, then by id. A malformed exercise.md is an error
// naming the file and what is wrong.
Result<std::vector<Exercise>> find_exercises();

// One exercise by id; an unknown id is an error that names the known ones.
Result<Exercise> find_exercise(const std::string& id);

// A file's bytes, or an error naming it: a regular file of at most `limit` bytes
// (device/trace/user_file.hpp).
Result<std::string> read_whole_file(const std::filesystem::path& path,
                                    uint64_t limit = kTextFileLimit);

// Reads an exercise folder's exercise.md (title, spec, hints) into `e`.
Status read_exercise_text(const std::filesystem::path& markdown, Exercise& e);

// The emulator schedules every hidden case runs under. One line to change when more schedules
// (random and its seeds) can be asked of a program run.
struct CheckSchedule {
  std::string name;  // as `coopviz run --schedule` names it
  uint64_t seed = 0;
};
const std::vector<CheckSchedule>& check_schedules();

// One hidden case's outcome.
struct CaseResult {
  std::string schedule;  // "lockstep"
  std::string launch;    // "grid 4 x block 256, n 1000"
  std::string input;     // "random"
  bool passed = false;
  long index = -1;  // the first wrong output, when one was wrong
  std::string got, want;
  std::string problem;  // a runtime error, a crash or an endless loop, in the runner's words
  double cpu_seconds = 0;  // the program's CPU time in the case, as coopviz measured it
  // The student's recorded trace of this case (a .cvt in the program cache, for `coopviz gui
  // --trace`), and where it first departs from the reference solution's trace of the same case
  // under the same schedule. Filled for the first failing case of a check only.
  std::string trace_path;
  struct FirstDifference {
    long launch = -1;  // index of the launch in the trace at trace_path
    long event = -1;   // index into that launch's events
    long thread = -1;  // grid-wide thread id
    int block = -1;    // its block's linear index
    std::string what;  // one line: what the thread did, and what the reference's did instead
  } first_difference;
};

struct CheckReport {
  std::string exercise;
  std::string file;
  bool compiled = false;
  std::string compiler_output;  // when it did not compile: the compiler's words, the file's lines
  std::vector<CaseResult> cases;
  std::string problem;  // the program stopped outside any case (its words), or ran no case
  double build_seconds = 0;
  bool build_cached = false;
  double seconds = 0;  // the whole check
  bool passed() const;
};

// Called as the check goes: the fraction done (0..1) and what it is doing, for a progress bar.
using CheckProgress = std::function<void(double fraction, const std::string& stage)>;

// How long a hidden case may run: CPU time is the program's own (its threads and the helpers it
// waited for), which a busy machine does not stretch, so a verdict does not depend on the load;
// the wall-clock bound only catches a case that waits without computing (a sleep, a lock: past it,
// a case that used under a hundredth of a core's time is stopped, which a slowed case is not). The
// CPU time is far more than any reference solution's case needs with every load and store
// recorded (under 3 s), and room for a correct but quadratic sum-of-the-others, whose largest
// case (41 M loads) took 8.7 s under the random schedule and more than 20 s under its; an endless
// loop ends there, once: the later schedules' runs, which would meet it again, are not made.
struct CheckLimits {
  double case_cpu_seconds = 60;
  double case_wall_seconds = 240;
};

// Builds the student's `file` with the exercise's hidden cases (through the same program
// pipeline and build cache as `coopviz run FILE.cu`) and runs them on the emulator under every
// check schedule. An error status means the check itself could not run (no such file, the cache
// not writable); a student's mistake is a report that did not pass.
Result<CheckReport> check_exercise(const Exercise& exercise, const std::string& file,
                                   const CheckProgress& progress = {},
                                   const CheckLimits& limits = {});

}  // namespace coop::app
