// coopviz bench NAME [...]: performance measurements, one subcommand per benchmark.
// `coopviz bench --list` prints the benchmark names, one per line, for scripts
// (scripts/gpu-check.sh runs each of them with --json).
#include <iostream>
#include <string>

#include "app/cli/commands.hpp"

namespace coop::app {
namespace {

struct Benchmark {
  const char* name;
  void (*add)(CLI::App& bench, CliState& state);  // adds the `name` subcommand to `bench`
};

// Every benchmark, in the order --list prints them. A new one adds a line here and its
// register_bench_<name> (declared in commands.hpp) in its own file.
const Benchmark kBenchmarks[] = {
    {"reduce", register_bench_reduce},
    {"trace", register_bench_trace},
    {"trace-file", register_bench_trace_file},
    {"emu", register_bench_emu},
    {"occupancy", register_bench_occupancy},
};

}  // namespace

void register_bench(CLI::App& app, CliState& state) {
  auto* bench = app.add_subcommand("bench", "Measure performance on the GPU (--list names them)");
  auto list = std::make_shared<bool>(false);
  bench->add_flag("--list", *list, "Print the available benchmark names, one per line");
  bench->require_subcommand(0, 1);
  for (const Benchmark& b : kBenchmarks) b.add(*bench, state);
  // Runs after the chosen benchmark's own callback (CLI11 runs subcommands first).
  bench->callback([bench, list, &state] {
    if (*list) {
      for (const Benchmark& b : kBenchmarks) std::cout << b.name << "\n";
      state.exit_code = 0;
      return;
    }
    if (bench->get_subcommands().empty()) {
      std::string names;
      for (const Benchmark& b : kBenchmarks)
        names += (names.empty() ? "" : ", ") + std::string(b.name);
      state.exit_code = usage_error("bench needs a benchmark name (" + names +
                                    "), or --list; see `coopviz bench --help`");
    }
  });
}

}  // namespace coop::app
