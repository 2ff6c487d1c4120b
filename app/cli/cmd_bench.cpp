// coopviz bench NAME [...]: the benchmarks; `coopviz bench --list` names them one per line.
#include <iostream>

#include "app/bench/bench.hpp"
#include "app/cli/commands.hpp"

namespace coop::app {

void register_bench(CLI::App& app, CliState& state) {
  auto* bench = app.add_subcommand("bench", "Run a benchmark (see --list)");
  auto list = std::make_shared<bool>(false);
  bench->add_flag("--list", *list, "Print the benchmark names, one per line");
  add_bench_emu(*bench, state);
  add_bench_trace(*bench, state);
  add_bench_trace_file(*bench, state);
  bench->callback([bench, list, &state] {
    if (*list) {
      for (const CLI::App* sub : bench->get_subcommands({})) std::cout << sub->get_name() << "\n";
      state.exit_code = 0;
    } else if (bench->get_subcommands().empty()) {
      std::cout << bench->help();
      state.exit_code = 2;
    }
  });
}

}  // namespace coop::app
