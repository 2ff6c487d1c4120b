// coopviz bench NAME [...]: performance measurements, one subcommand per benchmark;
// `coopviz bench --list` names them one per line (scripts/gpu-check.sh runs each with --json).
#include <iostream>
#include <string>

#include "app/cli/commands.hpp"

namespace coop::app {
namespace {

struct Benchmark {
  const char* name;
  void (*add)(CLI::App& bench, CliState& state);  // adds the `name` subcommand to `bench`
};

// Every benchmark, in --list order. The frame benchmark needs the GUI build.
const Benchmark kBenchmarks[] = {
#if COOPVIZ_WITH_GUI
    {"frame", register_bench_frame},
#endif
    {nullptr, nullptr},
};

}  // namespace

void register_bench(CLI::App& app, CliState& state) {
  auto* bench = app.add_subcommand("bench", "Measure performance (--list names the benchmarks)");
  auto list = std::make_shared<bool>(false);
  bench->add_flag("--list", *list, "Print the benchmark names, one per line");
  bench->require_subcommand(0, 1);
  for (const Benchmark& b : kBenchmarks)
    if (b.add) b.add(*bench, state);
  // CLI11 runs the chosen benchmark's callback before this one.
  bench->callback([bench, list, &state] {
    std::string names;
    for (const Benchmark& b : kBenchmarks)
      if (b.name) names += (names.empty() ? "" : ", ") + std::string(b.name);
    if (*list) {
      for (const Benchmark& b : kBenchmarks)
        if (b.name) std::cout << b.name << "\n";
      state.exit_code = 0;
    } else if (bench->get_subcommands().empty()) {
      state.exit_code =
          usage_error("bench needs a benchmark name (" +
                      (names.empty() ? std::string("none in this build") : names) + "), or --list");
    }
  });
}

}  // namespace coop::app
