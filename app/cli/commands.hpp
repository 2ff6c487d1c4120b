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
void register_bench(CLI::App& app, CliState& state);      // timed workloads
void register_gui(CLI::App& app, CliState& state);         // gui and screenshot

// Prints "coopviz: error: <message>" to stderr and returns the exit code for usage errors.
int usage_error(const std::string& message);

}  // namespace coop::app
