// Built with -DCOOPVIZ_GUI=OFF: the GUI subcommands exist and say why they cannot run.
#include "app/cli/commands.hpp"

namespace coop::app {

void register_gui(CLI::App& app, CliState& state) {
  for (const char* name : {"gui", "screenshot"}) {
    auto* cmd = app.add_subcommand(name, "Not available: this coopviz was built without the GUI");
    cmd->allow_extras();
    cmd->callback([&state] {
      state.exit_code = usage_error(
          "this coopviz was built with -DCOOPVIZ_GUI=OFF; rebuild with the GUI to open windows");
    });
  }
}

}  // namespace coop::app
