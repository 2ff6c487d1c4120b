// The coopviz command line: one register_* per subcommand. Each sets `exit_code` when it runs.
#pragma once

#include <CLI/CLI.hpp>

namespace coop::app {

struct CliState {
  int exit_code = 0;
};

void register_list(CLI::App& app, CliState& state);
void register_run(CLI::App& app, CliState& state);
void register_devices(CLI::App& app, CliState& state);
void register_occupancy(CLI::App& app, CliState& state);  // the occupancy calculator
void register_gui(CLI::App& app, CliState& state);         // gui and screenshot
void register_steps(CLI::App& app, CliState& state);       // what every lesson step shows
void register_bench(CLI::App& app, CliState& state);       // bench and every benchmark under it

// Benchmarks: each adds its subcommand to `coopviz bench` (cmd_bench.cpp lists them).
void register_bench_reduce(CLI::App& bench, CliState& state);      // reduction kernels vs CUB
void register_bench_trace(CLI::App& bench, CliState& state);       // GPU recorder throughput
void register_bench_trace_file(CLI::App& bench, CliState& state);  // large trace files
void register_bench_emu(CLI::App& bench, CliState& state);         // emulator speed
void register_bench_occupancy(CLI::App& bench, CliState& state);   // occupancy sweep speed
void register_bench_byo(CLI::App& bench, CliState& state);         // your own program's latency
void register_export(CLI::App& app, CliState& state);
void register_exercise(CLI::App& app, CliState& state);       // exercises: list, start, check, ...
void register_bench_frame(CLI::App& bench, CliState& state);  // GUI builds only

// Prints "coopviz: error: <message>" to stderr, on one line, and returns 2, the exit code for
// usage errors (usage.cpp).
int usage_error(const std::string& message);

// A CLI11 parse error as a sentence for usage_error: what was wrong, and what is allowed. `root`
// is the app that threw it; the subcommands it had chosen tell which command to point to.
std::string usage_sentence(const CLI::App& root, const CLI::ParseError& e);

}  // namespace coop::app
