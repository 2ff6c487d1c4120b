// Built with -DCOOPVIZ_GUI=OFF: the GUI subcommands exist and say why they cannot run.
#include "app/cli/commands.hpp"

namespace coop::app {
namespace {

void add_disabled(CLI::App& app, CliState& state, const char* name) {
  auto* cmd = app.add_subcommand(name, "Not available: this coopviz was built without the GUI");
  cmd->allow_extras();
  cmd->callback([&state] {
    state.exit_code = usage_error(
        "this coopviz was built with -DCOOPVIZ_GUI=OFF; rebuild with the GUI to open windows");
  });
}

}  // namespace

void register_gui(CLI::App& app, CliState& state) {
  for (const char* name : {"gui", "screenshot"}) add_disabled(app, state, name);
}

// The frame benchmark draws the app, so it needs the GUI too.
void register_bench_frame(CLI::App& bench, CliState& state) {
  add_disabled(bench, state, "frame");
}

}  // namespace coop::app
