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
void register_gui(CLI::App& app, CliState& state);         // gui and screenshot
void register_bench(CLI::App& app, CliState& state);       // bench and every benchmark under it

// Benchmarks: each adds its subcommand to `coopviz bench` (cmd_bench.cpp lists them).
void register_bench_frame(CLI::App& bench, CliState& state);  // GUI builds only

// Prints "coopviz: error: <message>" to stderr and returns the exit code for usage errors.
int usage_error(const std::string& message);

}  // namespace coop::app
