// coopviz bench NAME [...]: performance measurements, one subcommand per benchmark;
// `coopviz bench --list` names them one per line (scripts/gpu-check.sh runs each with --json).
#include <iostream>
#include <string>

#include "app/cli/commands.hpp"

namespace coop::app {
namespace {

#if COOPVIZ_WITH_GUI
constexpr bool kWithGui = true;
#else
constexpr bool kWithGui = false;
#endif

struct Benchmark {
  const char* name;
  void (*add)(CLI::App& bench, CliState& state);  // adds the `name` subcommand to `bench`
  bool available;  // false: the subcommand only says why it cannot run in this build
};

// Every benchmark, in --list order; --list names only those this build can run.
const Benchmark kBenchmarks[] = {
    {"reduce", register_bench_reduce, true},
    {"trace", register_bench_trace, true},
    {"trace-file", register_bench_trace_file, true},
    {"emu", register_bench_emu, true},
    {"occupancy", register_bench_occupancy, true},
    {"byo", register_bench_byo, true},
    {"frame", register_bench_frame, kWithGui},
};

}  // namespace

void register_bench(CLI::App& app, CliState& state) {
  auto* bench = app.add_subcommand("bench", "Measure performance (--list names the benchmarks)");
  auto list = std::make_shared<bool>(false);
  bench->add_flag("--list", *list, "Print the benchmark names, one per line");
  bench->require_subcommand(0, 1);
  for (const Benchmark& b : kBenchmarks) b.add(*bench, state);
  // CLI11 runs the chosen benchmark's callback before this one.
  bench->callback([bench, list, &state] {
    std::string names;
    for (const Benchmark& b : kBenchmarks)
      if (b.available) names += (names.empty() ? "" : ", ") + std::string(b.name);
    if (*list) {
      for (const Benchmark& b : kBenchmarks)
        if (b.available) std::cout << b.name << "\n";
      state.exit_code = 0;
    } else if (bench->get_subcommands().empty()) {
      state.exit_code =
          usage_error("bench needs a benchmark name (" +
                      (names.empty() ? std::string("none in this build") : names) + "), or --list");
    }
  });
}

}  // namespace coop::app
