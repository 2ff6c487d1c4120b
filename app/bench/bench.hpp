// Benchmarks (`coopviz bench NAME`): measurements, not tests. Each adds one subcommand.
#pragma once

#include "app/cli/commands.hpp"

namespace coop::app {

void add_bench_emu(CLI::App& bench, CliState& state);         // emulator speed
void add_bench_trace(CLI::App& bench, CliState& state);       // GPU recorder throughput
void add_bench_trace_file(CLI::App& bench, CliState& state);  // large trace files

}  // namespace coop::app
