// Running a lesson that is an ordinary CUDA program (lesson_folder.hpp): coopviz builds its .cu
// through the same pipeline as any user's program (app/program), runs it on the executor's
// backend with the launch and the parameters as arguments, and reads back every launch's trace
// and the checks the program printed.
//
// What a lesson program is told, in this order (lessons/README.md):
//   --backend=emulator|gpu [--grid=G] [--block=B] [--cluster=C] --NAME=VALUE for every parameter
// (G, B, C as "X", "X,Y" or "X,Y,Z"; a grid or block that lesson.json's launch.derived leaves to
// the program comes only when the user gave it or it is not the default; --cluster only for a
// cluster launch). What it prints, one
// line each, in the order it checks:
//   [pass] NAME: expected EXPECTED, got GOT      (or [FAIL], or [skip] with why as GOT)
//   [result] NAME = VALUE
//   [trace] NAME: expected ITEM[, ITEM ...] in KERNEL [launch K]
//   [count] NAME: SPEC in KERNEL [launch K]
// A [trace] line is a claim about the program's own trace that coopviz checks, not the program:
// that its launches of KERNEL (or the K-th, from 1) hold each ITEM: "N SPEC" (N events), "as many
// SPEC as SPEC" where the program cannot know N (how many coalesced groups the hardware formed),
// "N threads with SPEC then SPEC ..." (each thread's own events in that order), "N barrier phases
// kept" (none left before its last arrival) or "N races[ of write line L and read line M]" (the
// emulator's race detector; skipped where memory was not recorded). SPEC is "KIND[ of GROUP[
// SIZE|SIZE...]][ at SCOPE scope][ phase P][ at rank R][ at line L][ stuck][ open]", kinds and groups named as
// traces name them: "atomic", "barrier of tile 4|32", "barrier of block 64 phase 2 at line 31"
// (lessons/trace_claims.hpp says every form).
// A [count] line is a result whose value coopviz counts the same way. What a program can know of
// its trace, it states; what is there, coopviz counts. Claims about the values the trace holds
// (" on BUFFER", " finding V", "whose old values sum to S", a race's "chain of reads and writes"
// and what it lost) are lessons/value_claims.hpp's.
//   [schedule] KERNEL: P blocks per SM on N SMs       (then, for a modelled schedule:)
//   [schedule] KERNEL: block B on SM S from T0 to T1   (one line per block, in work units)
// states the block schedule of a kernel whose blocks are recorded (lesson.json's
// "records_blocks"): on the emulator, which does not time blocks, the program lists the schedule
// it modelled and coopviz places the trace's blocks there; on a GPU it lists none, and coopviz
// checks the measured block records against P.
// It exits 0 when no check failed, 1 when one did, and 2 after one `error: ...` line on stderr
// when it cannot run the launch or parameters it was given.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.hpp"

namespace coop::lessons {

// The arguments a run of `lesson` on `backend` passes to its program.
std::vector<std::string> program_arguments(const LessonDef& lesson, const RunRequest& request,
                                           Backend backend);

// Reads the check, result and trace-claim lines of what a lesson program printed into `run`; a
// claim becomes a check, settled against the run's launches (run.launches must hold them). Every
// other line is returned, as printed.
std::string read_program_report(std::string_view printed, LessonRun& run);

// Runs the lesson's program on exec's backend: its launches, checks and results fill `out`.
// The program pipeline is the app's (lessons sit below it), so the app sets the runner
// (app/program/lesson_program.hpp); without one a program lesson is an error that says so.
using ProgramLessonRunner = Status (*)(const LessonDef&, Executor&, const RunRequest&, LessonRun&);
void set_program_lesson_runner(ProgramLessonRunner run);
Status run_program_lesson(const LessonDef& lesson, Executor& exec, const RunRequest& request,
                          LessonRun& out);

// A lesson with the Benchmark tab (lesson.json's "benchmark_tab") ends its results with one line
// about the benchmark results that ship with coopviz, which its program cannot read: the result
// named kBenchmarkResult, which the runner adds from the summary the app sets here (the benchmark
// lives above lessons, app/bench/reduce).
inline constexpr const char* kBenchmarkResult = "last GPU benchmark";
using BenchmarkSummary = std::string (*)();
void set_benchmark_summary(BenchmarkSummary summary);

}  // namespace coop::lessons
