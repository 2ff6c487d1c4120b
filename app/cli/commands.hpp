// The coopviz command line: one register_* per subcommand. Each sets `exit_code` when it runs.
// Files are named after what they register: app/cli/cmd_<command>[_<mode>].cpp holds the options
// and output of `coopviz <command> [<mode>]` (the window's commands, which share their options,
// are all in cmd_gui.cpp), app/bench/bench_<name>.cpp the benchmark `coopviz bench <name>` (its
// options and measurement; `-` in a name is `_` in its file), and the other files of app/cli/
// are helpers the commands share.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

#include "device/launch/result.hpp"

namespace coop::app {

struct CliState {
  int exit_code = 0;
  // What followed the first `--` on the command line, untouched: a program file's own arguments.
  // main() takes them off before CLI11 parses, so that no option of coopviz (a repeatable -I or
  // -D, or -h inside "-hA=64") can take them.
  std::vector<std::string> after_separator;
};

// Splits `args` (argv without the program name) at the first `--`: coopviz's own options before
// it, the program's arguments after it, the `--` in neither.
struct SplitArguments {
  std::vector<std::string> own, program;
  bool separated = false;  // a `--` was given
};
SplitArguments split_at_separator(const std::vector<std::string>& args);

// A lesson named on the command line: an id, or the path of a lesson folder
// (lessons/lesson_folder.hpp: a lesson anywhere, run with no rebuild), which then joins the
// lessons ahead of any other with its id. Returns the id; a folder that is no lesson, or whose
// lesson.json has a mistake, is an error that says what is wrong.
Result<std::string> lesson_argument(const std::string& arg);

void register_list(CLI::App& app, CliState& state);
void register_run(CLI::App& app, CliState& state);
void register_devices(CLI::App& app, CliState& state);
void register_occupancy(CLI::App& app, CliState& state);  // the occupancy calculator
void register_gui(CLI::App& app, CliState& state);         // gui, screenshot, layout-check
void register_steps(CLI::App& app, CliState& state);       // what every lesson step shows
void register_ncu_compare(CLI::App& app, CliState& state);  // Nsight Compute vs the emulator
void register_bench(CLI::App& app, CliState& state);       // bench and every benchmark under it
void register_export(CLI::App& app, CliState& state);      // a saved trace in other formats
void register_exercise(CLI::App& app, CliState& state);    // exercises: list, start, check, ...
void register_pack(CLI::App& app, CliState& state);        // class packs: check, summary
void register_questions(CLI::App& app, CliState& state);   // a lesson's questions, answered
void register_lesson(CLI::App& app, CliState& state);      // lesson check FOLDER

// Benchmarks: each adds its subcommand to `coopviz bench` (cmd_bench.cpp lists them).
void register_bench_reduce(CLI::App& bench, CliState& state);      // reduction kernels vs CUB
void register_bench_trace(CLI::App& bench, CliState& state);       // GPU recorder throughput
void register_bench_trace_file(CLI::App& bench, CliState& state);  // large trace files
void register_bench_emu(CLI::App& bench, CliState& state);         // emulator speed
void register_bench_occupancy(CLI::App& bench, CliState& state);   // occupancy sweep speed
void register_bench_byo(CLI::App& bench, CliState& state);         // your own program's latency
void register_bench_frame(CLI::App& bench, CliState& state);       // the window's frame time

// Prints "coopviz: error: <message>" to stderr, on one line, and returns 2, the exit code for
// usage errors (usage.cpp).
int usage_error(const std::string& message);
// usage_error for each line of `messages` (a class pack's errors, one per line); returns 2.
int usage_errors(const std::string& messages);

// A CLI11 parse error as a sentence for usage_error: what was wrong, and what is allowed. `root`
// is the app that threw it; the subcommands it had chosen tell which command to point to.
std::string usage_sentence(const CLI::App& root, const CLI::ParseError& e);

// An image or window size (screenshot, layout-check, steps --size): "1280x800" -> {1280, 800},
// each side within [kMinImage, limit] pixels (cmd_gui.cpp).
inline constexpr int kMinImage = 200, kMaxImage = 8192;
Result<std::pair<int, int>> parse_size(const std::string& text, int limit);

}  // namespace coop::app
