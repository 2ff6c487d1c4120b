// What a lesson is: text, steps, parameters with legal ranges, a launch configuration, and a run
// function that launches its kernels on any Executor and checks them against a CPU reference.
// Which lessons exist is decided by the folders under lessons/ (see lessons/README.md); the
// registry (registry.cpp) builds them and orders them by LessonDef::order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "device/launch/executor.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/shown_accesses.hpp"
#include "device/trace/trace.hpp"
#include "lessons/params.hpp"
#include "lessons/step.hpp"

namespace coop::lessons {

enum class Level { Beginner, Intermediate, Advanced };
const char* to_string(Level level);

// One verified claim of a lesson run.
struct Check {
  std::string name;
  std::string expected;
  std::string got;
  bool pass = false;
  bool skipped = false;  // could not be checked; `got` says why
};

// Everything a run produced. Launch traces are kept even when the run failed (a deadlock report
// is most useful next to the trace of what the threads did).
struct LessonRun {
  Status status;
  std::vector<Trace> launches;
  std::vector<Check> checks;
  std::vector<std::pair<std::string, std::string>> results;  // named values to show
  bool passed() const;
};

struct RunRequest {
  LaunchConfig config;
  Params params;
  Schedule schedule = Schedule::Lockstep;  // the emulator's (ExecOptions::schedule)
  uint64_t seed = 0;
  // Which parts of config the user gave. A lesson that derives a launch from its parameters (a
  // grid of `waves` full waves, the block of an example) keeps what was given as given.
  bool grid_given = false, block_given = false;
};

struct LessonDef {
  std::string id;
  int order = 0;  // teaching position: lessons are listed by increasing order, all distinct
  std::string title;
  Level level = Level::Beginner;
  std::vector<std::string> concepts;
  int min_cc = 0;              // 10 * major + minor needed on a GPU (0: any)
  bool runs_on_gpu = true;     // hazard lessons (deadlocks) run on the emulator only
  // False where the traces may legally differ between backends beyond what compare_deterministic
  // already ignores (e.g. races whose lost updates change later values); the equivalence test
  // then compares only checks, not traces.
  bool traces_comparable = true;
  // Kernels whose control flow depends on a legal hardware choice (e.g. "the last block to finish
  // adds the partial sums": which block that is differs by run), so their traces are not compared.
  std::vector<std::string> incomparable_kernels;
  std::string_view text;       // lesson text, Markdown (lesson.md before its steps); set by the
                               // registry from the folder, as are source and source_file
  std::string_view source;     // the kernel file
  std::string source_file;     // its name, as shown in the code view
  std::string text_file;       // lesson.md as messages name it ("lessons/<folder>/lesson.md")
  std::vector<Step> steps;     // from lesson.md's "## Steps"
  // Every mistake of lesson.md's steps, one "FILE:LINE: what" a line ("" when there is none).
  // Steps that parse are kept when they only name what the lesson lacks (a kernel, a line).
  std::string steps_error;
  bool benchmark_tab = false;  // the app offers the reduction benchmark's tab with this lesson
  // The lesson is about memory access: the emulator records every shared and global load and
  // store of its runs (ExecOptions::record_memory), whatever the run asked for, so the Memory
  // tab and the code view's badges always have the accesses to analyse.
  bool records_memory = false;
  // Or only in runs where parameter `param` takes one of `values` (lesson.json's
  // "records_memory": {"variant": [3]}): the variant about a race records its accesses, the
  // others keep the traces they have without them.
  struct MemoryRecordingWhen {
    std::string param;
    std::vector<int64_t> values;
  };
  std::optional<MemoryRecordingWhen> records_memory_when;
  // Plain stores and loads of the lesson's program into these buffers are recorded as traced ones
  // (lesson.json's "shown_stores" and "shown_loads"; device/launch/shown_accesses.hpp): how a
  // program's steps point at a store that ordinary CUDA cannot mark. With "records_blocks", its
  // kernels' blocks record their start and finish for the Schedule view.
  ShownAccesses shown;
  // Nsight Compute's memory counters of the lesson's kernels measured on a GPU (the ncu.json that
  // `scripts/gpu-check.sh ncu` writes into the lesson folder, app/ncu_compare.hpp reads it); ""
  // until it was measured.
  std::string_view gpu_counters;
  std::vector<ParamDef> params;
  LaunchConfig default_config;
  // Parts of default_config a lesson program chooses itself, from its parameters, when the user
  // gave none (lesson.json's launch.derived): the runner leaves them out of the program's
  // arguments then (block-scheduling's grid: as many full waves of the device as `waves` says).
  bool derives_grid = false, derives_block = false;
  // A lesson that is an ordinary CUDA program (lessons/program_lesson.hpp): its .cu file and the
  // folder it was read from at run time; both "" for a LessonDef made in code (tests make them).
  std::string program;
  std::string folder;
  // Checks its program makes only on a GPU (lesson.json's "gpu": {"checks": [...]}); on the
  // emulator the program reports them skipped.
  std::vector<std::string> gpu_checks;
  // Its program's launches of more threads than this run untraced and are counted (timed
  // launches on a GPU); 0: all are traced.
  uint64_t trace_threads_max = 0;
  // Which of its program's launches are traced (lesson.json's "trace_launches"): "all", or
  // "first" of each kernel and shape, whose repeats run untraced and are counted (a litmus test's
  // many runs).
  std::string trace_launches = "all";
  // Whether its program's repeated launches each run under their own schedule on the emulator,
  // even at seed 0 (lesson.json's "vary_repeats"; ProgramOptions::vary_repeats).
  bool vary_repeats = false;
  // What a program cannot say about itself: the compiler's report of one of its kernels built
  // again under each --maxrregcount cap (lesson.json's "register_caps"). The runner adds a result
  // per build ("KERNEL, --maxrregcount N": registers, spills, occupancy), the check that every
  // capped build stays within its cap, and, with must_spill_check, that every cap up to
  // must_spill_up_to spills.
  struct RegisterCaps {
    std::string kernel;
    std::vector<int> caps;
    int must_spill_up_to = 0;
    std::string must_spill_check;
  };
  std::optional<RegisterCaps> register_caps;
  // Rules of this lesson's kernels beyond the device's limits (e.g. a power-of-two block).
  std::function<Status(const LaunchConfig&, const Params&)> validate;
  // Sets up inputs, launches, computes the CPU reference and fills checks and results.
  std::function<Status(Executor&, const RunRequest&, LessonRun&)> run;
};

// All lessons in teaching order.
const std::vector<LessonDef>& registry();
const LessonDef* find_lesson(std::string_view id);
// "block-reduce, groups-and-ranks, ..." for error messages.
std::string lesson_ids();

// Reads `markdown` (a lesson.md, named `file` in messages) into the lesson's text, steps and
// steps_error; what a step names is checked against the lesson's kernel file (source) and its
// parameters and launch rules. The lesson's text keeps a view into `markdown`.
void read_lesson_markdown(LessonDef& lesson, std::string_view markdown, const std::string& file);

// Parses "name=value" items against the lesson's parameters; unknown names and out-of-range
// values are errors naming the parameter and its range. Missing ones take their defaults.
Result<Params> parse_params(const LessonDef& lesson, const std::vector<std::string>& items);
Status check_params(const LessonDef& lesson, const Params& params);

// Source lines (1-based) of the lesson kernel that contain `snippet`.
std::vector<int> lines_with(std::string_view source, std::string_view snippet);

// The first and last line of `__global__` function `kernel`'s definition in `source` (from its
// `__global__` line to its closing brace); {0, 0} when it is not found.
std::pair<int, int> kernel_lines(std::string_view source, std::string_view kernel);

// What a step runs: the lesson's default launch and parameters with the step's own on top (a
// step is a view its text describes, so nothing typed for another step is carried over).
RunRequest step_request(const LessonDef& lesson, const Step& step);

// Whether the emulator records every load and store of a run of `lesson` with `params`
// (records_memory, or records_memory_when holds for them; a missing parameter takes its default).
bool records_memory_in(const LessonDef& lesson, const Params& params);

// Validates, runs the lesson and stamps each trace with the lesson's identity and source.
LessonRun run_lesson(const LessonDef& lesson, Executor& exec, const RunRequest& request);

// Helpers for checks.
std::string format_float(double v, int digits = 9);
Check make_check(std::string name, std::string expected, std::string got, bool pass);

}  // namespace coop::lessons
