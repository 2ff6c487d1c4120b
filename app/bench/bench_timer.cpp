// coopviz bench byo --timer: whether a program's own timer tells the truth under coopviz's GPU
// backend. The program (default tests/programs/timed/timed_reduction.cu) times a loop of launches with
// CUDA events and prints "Average time = X ms"; it is built plainly by nvcc and by coopviz, both
// are run, and the two averages and their ratio are printed. Only the first launch of each shape
// is traced, so the loop runs the plain kernel: the ratio should stay under 1.5.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/bench/bench_timer.hpp"
#include "app/bench/timing.hpp"
#include "app/cli/commands.hpp"
#include "app/program/program.hpp"

namespace coop::app {
namespace {
namespace fs = std::filesystem;

constexpr double kTargetRatio = 1.5;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `build` (the plain one or coopviz's) and reads its average; the error names the run.
Result<double> timed_run(const ProgramOptions& p, const ProgramBuild& build, const char* which) {
  Result<ProgramRun> run = run_program(p, build);
  if (!run) return run.status();
  const std::string printed = read_text(p.stdout_path);
  if (run->exit_code != 0)
    return Status::error(std::string("the ") + which + " run exited with " +
                         std::to_string(run->exit_code) + (run->what.empty() ? "" : ": " + run->what) +
                         "; it printed: " + printed);
  const double ms = average_time_ms(printed);
  if (ms < 0)
    return Status::error(std::string("the ") + which +
                         " run printed no \"Average time = X ms\" line: " + printed);
  return ms;
}

}  // namespace

int bench_program_timer(const std::string& file, int runs, bool json) {
  const std::string arch = local_gpu_arch();
  if (arch.empty())
    return usage_error("bench byo --timer compares with a plain nvcc build on the GPU: no CUDA "
                       "device here");
  const fs::path scratch =
      fs::temp_directory_path() / ("coopviz-bench-timer-" + std::to_string(getpid()));
  fs::create_directories(scratch);
  const auto fail = [&](const std::string& why) {
    std::cerr << "coopviz: error: " << why << "\n";
    fs::remove_all(scratch);
    return 1;
  };
  // Plain: nvcc as a user would call it, no coopviz header, no lowering.
  ProgramBuild plain;
  plain.executable = (scratch / "plain").string();
  const std::string log = (scratch / "nvcc.log").string();
  const std::string nvcc = nvcc_command() + " -O3 -arch=" + arch + " -o '" + plain.executable +
                           "' '" + file + "' > '" + log + "' 2>&1";
  if (std::system(nvcc.c_str()) != 0)
    return fail("nvcc could not build " + file + " plainly: " + read_text(log));
  ProgramOptions p;
  p.file = file;
  p.gpu_arch = arch;
  p.stdout_path = (scratch / "stdout.txt").string();
  p.trace_out = (scratch / "trace.cvt").string();
  Result<ProgramBuild> coop = build_program(p);
  if (!coop) return fail("coopviz could not build " + file + ": " + coop.status().message());
  std::vector<double> plain_ms, coop_ms;
  for (int r = 0; r < runs; ++r) {
    Result<double> a = timed_run(p, plain, "plain nvcc");
    if (!a) return fail(a.status().message());
    plain_ms.push_back(*a);
    Result<double> b = timed_run(p, *coop, "coopviz");
    if (!b) return fail(b.status().message());
    coop_ms.push_back(*b);
  }
  fs::remove_all(scratch);
  const double plain_median = median(plain_ms), coop_median = median(coop_ms);
  const double ratio = plain_median > 0 ? coop_median / plain_median : 0;
  const bool within = plain_median > 0 && ratio <= kTargetRatio;
  if (json) {
    std::cout << nlohmann::json{{"bench", "byo-timer"},
                                {"file", file},
                                {"arch", arch},
                                {"runs", runs},
                                {"plain_ms", plain_median},
                                {"coopviz_ms", coop_median},
                                {"ratio", ratio},
                                {"target_ratio", kTargetRatio},
                                {"within_target", within}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << file << ", its own timer (\"Average time\"), median of " << runs << ":\n"
              << "  plain nvcc: " << plain_median << " ms\n"
              << "  coopviz run --backend gpu: " << coop_median << " ms\n"
              << "  ratio: " << ratio << " (target <= " << kTargetRatio << ")\n";
  }
  return within ? 0 : 1;
}

}  // namespace coop::app
