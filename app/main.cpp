// coopviz: entry point. With no subcommand it opens the GUI when a display exists.
#include <cstdlib>
#include <iostream>

#include "app/bench/reduce/bench.hpp"
#include "app/cli/commands.hpp"
#include "app/program/lesson_program.hpp"
#include "lessons/program_lesson.hpp"

namespace {

// The footer of `coopviz --help`; README.md's "Exit codes" says the same.
constexpr const char* kExitCodes = R"(Exit codes:
  0  success
  1  the command ran and something it checks failed: a lesson's checks or its run, an
     exercise's hidden cases (exercise check),
     --compare (the backends disagree), a benchmark (it failed, missed its target, or
     bench reduce found no GPU), an occupancy that does not fit, a layout-check with
     cut-off panels, a --script expectation, a screenshot whose run timed out, or a
     file that could not be written
  2  usage error, one line on stderr: a bad command line (an unknown command or option,
     a missing, malformed or out-of-range value, an unknown lesson or --param), or what
     this machine cannot do (a GPU asked for and none here, a window without a display,
     a trace, script, class pack or lesson folder that cannot be read or has errors)
  3  run FILE.cu / exercise check ID FILE: the program did not compile for the emulator
     (gui FILE.cu opens the window on the compiler's errors instead)
  Once a program file ran, `coopviz run FILE.cu` exits with the program's own status
  (128 + the signal when one ended it).

Your own CUDA program: coopviz run FILE.cu [MORE.cu MORE.cpp ...] [-I DIR] [-D NAME=VALUE]
[--launch KERNEL=GRID/BLOCK] [-- ARGS], or coopviz gui FILE.cu, runs it on the GPU (or the
emulator when there is none, or with --backend emu) with every kernel launch traced; a
program of several files is named as nvcc takes it (-rdc=true too); --launch runs a kernel
with another grid and block.

Exercises: coopviz exercise list, then exercise start ID --out DIR, exercise check ID FILE
(your kernel on hidden cases; --json), exercise hint ID [N], and for teachers exercise
solution ID --teacher --out DIR.

Lesson authors: coopviz lesson check FOLDER (a lesson folder's lesson.md against its kernel
file: every mistake with its file and line).

Class packs (a teacher's lessons, exercises and questions in order): coopviz pack check FILE,
coopviz pack summary FILE [--json] (the exercises solved on this machine), coopviz gui --pack
FILE.)";

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
  register_ncu_compare(app, state);
  register_bench(app, state);
  register_export(app, state);
  register_exercise(app, state);
  register_pack(app, state);
  register_questions(app, state);
  register_lesson(app, state);
  app.footer(kExitCodes);
  app.set_version_flag("--version", "coopviz " COOPVIZ_VERSION);
  // `--` ends coopviz's options: what follows is the program's, whatever it looks like. Only
  // `coopviz run FILE.cu` passes arguments to a program; any other command refuses them.
  const SplitArguments split = split_at_separator(std::vector<std::string>(argv + 1, argv + argc));
  if (!split.program.empty() && (split.own.empty() || split.own.front() != "run"))
    return usage_error("unexpected arguments after --: only `coopviz run FILE.cu -- ARGS` passes "
                       "arguments to a program");
  state.after_separator = split.program;
  std::vector<const char*> own = {argv[0]};
  for (const std::string& a : split.own) own.push_back(a.c_str());
  try {
    app.parse(int(own.size()), own.data());
  } catch (const CLI::Success& e) {  // --help, --version
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

int main(int argc, char** argv) {
  coop::app::install_lesson_runner();
  coop::lessons::set_benchmark_summary(&coop::lessons::reduction_performance::shipped_summary);
  return run_cli(argc, argv);
}
