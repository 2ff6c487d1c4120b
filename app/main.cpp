// coopviz: entry point. With no subcommand it opens the GUI when a display exists.
#include <cstdlib>
#include <iostream>

#include "app/cli/commands.hpp"

namespace {

int run_cli(int argc, char** argv) {
  using namespace coop::app;
  CLI::App app{"coopviz: watch CUDA Cooperative Groups, atomics and occupancy, thread by thread"};
  app.require_subcommand(0, 1);
  CliState state;
  register_list(app, state);
  register_run(app, state);
  register_devices(app, state);
  register_occupancy(app, state);
  register_gui(app, state);
#if COOPVIZ_WITH_GUI
  register_steps(app, state);
#endif
  register_bench(app, state);
  register_export(app, state);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(usage_sentence(app, e));
  }
  if (app.get_subcommands().empty()) {
    const bool display = std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
    if (!display) {
      std::cout << app.help();
      return 0;
    }
    const char* gui_args[] = {argv[0], "gui"};
    return run_cli(2, const_cast<char**>(gui_args));
  }
  return state.exit_code;
}

}  // namespace

int main(int argc, char** argv) { return run_cli(argc, argv); }
