// coopviz bench emu: how fast the CPU emulator runs kernels, against Numba's CUDA simulator on the
// atomics notes' sum reduction, and on a million-thread block-tree reduction with tracing on.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>

#include "app/bench/kernels/kernels.hpp"
#include "app/bench/timing.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/schedule_options.hpp"
#include "app/program/child_process.hpp"
#include "device/launch/executor.hpp"
#include "device/occupancy/presets.hpp"
#include "device/trace/race_detector.hpp"

namespace coop::app {
namespace {

using Clock = BenchClock;

// Peak resident memory of this process so far (VmHWM), in MiB.
double peak_rss_mib() {
  return peak_resident_mib(getpid());
}

struct EmuTiming {
  double median_s = 0;
  uint64_t events = 0, dropped = 0;
  double sum = 0, expected = 0;
  bool ok = false;
  std::string error;
};

// Launches `kernel` `reps` times on a fresh input and returns the median wall time.
// `inspect` (if given) sees the last launch's trace.
template <class K>
EmuTiming time_sum_kernel(Executor& exec, const K& kernel, Dim3 grid, Dim3 block, int reps,
                          const std::function<void(const Trace&)>& inspect = {}) {
  EmuTiming t;
  const size_t n = grid.count() * block.count();
  std::vector<float> input(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& x : input) {
    x = u(rng);
    t.expected += x;
  }
  auto d_in = DeviceArray<float>::create(exec, n, "input");
  auto d_out = DeviceArray<float>::create(exec, 1, "total");
  if (!d_in || !d_out) {
    t.error = "allocation failed";
    return t;
  }
  d_in->upload(input);
  LaunchConfig config;
  config.grid = grid;
  config.block = block;
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    d_out->zero();
    Trace trace;
    const auto t0 = Clock::now();
    Status s = exec.launch(kernel, config, trace, d_in->get(), d_out->get());
    times.push_back(seconds_since(t0));
    if (!s) {
      t.error = s.message();
      return t;
    }
    t.events = trace.events.size();
    t.dropped = trace.dropped();
    if (inspect && r == reps - 1) inspect(trace);
  }
  t.median_s = median(times);
  t.sum = (*d_out->download())[0];
  t.ok = std::abs(t.sum - t.expected) <= 1e-5 * t.expected;
  return t;
}

// The same reduction untraced, and traced with every shared and global load and store recorded
// as well (device/emu/memory_record.hpp): recording must stay under 3x the untraced time.
bool time_memory_recording(Executor& exec, nlohmann::json& out, bool json) {
  const Dim3 grid{1024, 1, 1}, block{1024, 1, 1};
  const auto& kernel = lessons::bench::kernels().tree_sum_1024;
  exec.options().trace = false;
  const EmuTiming untraced = time_sum_kernel(exec, kernel, grid, block, 3);
  exec.options().trace = true;
  exec.options().record_memory = true;
  // About 5 million loads and stores join the 12.6 million events of the traced run.
  exec.options().trace_capacity = 24u << 20;
  // The race detector (coopviz run --races) walks the recorded trace afterwards.
  double race_seconds = 0;
  size_t races = 0;
  const EmuTiming recorded = time_sum_kernel(exec, kernel, grid, block, 3, [&](const Trace& trace) {
    const auto t0 = Clock::now();
    races = find_races(trace).size();
    race_seconds = seconds_since(t0);
  });
  exec.options().record_memory = false;
  const double ratio = untraced.median_s > 0 ? recorded.median_s / untraced.median_s : 0;
  out["untraced_seconds"] = untraced.median_s;
  out["memory_recorded"] = {{"seconds", recorded.median_s}, {"events", recorded.events},
                            {"dropped", recorded.dropped},  {"correct", recorded.ok},
                            {"times_untraced", ratio},      {"target_times_untraced", 3.0}};
  if (!recorded.error.empty()) out["memory_recorded"]["error"] = recorded.error;
  out["races_found"] = {
      {"seconds", race_seconds},
      {"times_recorded_run", recorded.median_s > 0 ? race_seconds / recorded.median_s : 0},
      {"races", races}};
  if (!json)
    std::printf(
        "  untraced: %.3f s; recording every load and store too: %.3f s (%.2fx), %llu "
        "events\n",
        untraced.median_s, recorded.median_s, ratio, (unsigned long long)recorded.events);
  if (!json) std::printf("  finding races in that trace: %.3f s, %zu found\n", race_seconds, races);
  return untraced.ok && recorded.ok && recorded.dropped == 0 && ratio < 3.0;
}

// The same reduction untraced with every shared and global access checked against its
// allocation (what a user's program always runs with), and with reads of memory never written
// checked too (--check-memory, exercise checks): reported against the untraced time, no target.
void time_memory_checks(Executor& exec, nlohmann::json& out, bool json) {
  const Dim3 grid{1024, 1, 1}, block{1024, 1, 1};
  const auto& kernel = lessons::bench::kernels().tree_sum_1024;
  exec.options().trace = false;
  exec.options().check_bounds = true;
  const EmuTiming bounds = time_sum_kernel(exec, kernel, grid, block, 3);
  exec.options().check_initialisation = true;  // the arrays made from here on keep a shadow
  const EmuTiming initialised = time_sum_kernel(exec, kernel, grid, block, 3);
  exec.options().check_bounds = exec.options().check_initialisation = false;
  exec.options().trace = true;
  const double untraced = out.value("untraced_seconds", 0.0);
  const auto times = [untraced](const EmuTiming& t) {
    return untraced > 0 ? t.median_s / untraced : 0;
  };
  out["memory_checked"] = {{"bounds_seconds", bounds.median_s},
                           {"bounds_times_untraced", times(bounds)},
                           {"bounds_correct", bounds.ok},
                           {"initialisation_seconds", initialised.median_s},
                           {"initialisation_times_untraced", times(initialised)},
                           {"initialisation_correct", initialised.ok}};
  for (const auto& [key, t] :
       {std::pair{"bounds_error", &bounds}, {"initialisation_error", &initialised}})
    if (!t->error.empty()) out["memory_checked"][key] = t->error;
  if (!json)
    std::printf(
        "  untraced with bounds checked: %.3f s (%.2fx); with reads of memory never "
        "written checked too: %.3f s (%.2fx)\n",
        bounds.median_s, times(bounds), initialised.median_s, times(initialised));
}

// Runs scripts/numba_sum_reduce.py with Debian's python3; returns seconds or a negative value.
double numba_seconds(const std::string& script) {
  const std::string cmd = "/usr/bin/python3 " + script + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[64] = {};
  const bool got = std::fgets(buf, sizeof buf, p) != nullptr;
  const int rc = pclose(p);
  if (!got || rc != 0) return -1;
  return std::atof(buf);
}

}  // namespace

void register_bench_emu(CLI::App& bench, CliState& state) {
  struct Options {
    bool json = false;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    std::string numba_script = "scripts/numba_sum_reduce.py";
    double numba_reference = 0;  // seconds, when the simulator cannot be run here
    unsigned window = 0;
    std::string only;  // "tree" or "numba": run one of the two measurements
    ScheduleOptions emu;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = bench.add_subcommand("emu",
                                   "Emulator speed: Numba-simulator comparison and a "
                                   "1M-thread traced tree reduction");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--jobs", o->jobs, "OS threads for the large reduction")->capture_default_str();
  cmd->add_option("--window", o->window, "Blocks interleaved per OS thread (0: automatic)")
      ->capture_default_str();
  cmd->add_option("--numba-script", o->numba_script, "Script timing Numba's CUDA simulator");
  cmd->add_option("--numba-seconds", o->numba_reference,
                  "Use this simulator time instead of running the script");
  cmd->add_option("--only", o->only, "Run one measurement only")
      ->check(CLI::IsMember({"tree", "numba"}));
  add_schedule_options(cmd, o->emu);
  cmd->callback([o, &state] {
    // Random and its run on one OS thread: the large reduction's --jobs then gives way.
    const Result<Schedule> schedule = parse_schedule(o->emu.schedule, "--schedule");
    if (!schedule) return void(state.exit_code = usage_error(schedule.message()));
    if (*schedule != Schedule::Lockstep) o->jobs = 1;
    auto exec = make_emu_executor(default_emulated_device());
    nlohmann::json out;
    out["device"] = exec->device().name + " (emulated)";
    out["cores"] = std::thread::hardware_concurrency();
    out["schedule"] = o->emu.schedule;
    out["seed"] = o->emu.seed;
    bool pass = true;
    exec->options().window = o->window;
    exec->options().schedule = *schedule;
    exec->options().seed = o->emu.seed;

    // 1. A million threads, ten barriers each, every event recorded (run first: peak memory).
    if (o->only != "numba") {
      exec->options().jobs = o->jobs;
      exec->options().trace_capacity = 16u << 20;
      const EmuTiming tree = time_sum_kernel(*exec, lessons::bench::kernels().tree_sum_1024,
                                             Dim3{1024, 1, 1}, Dim3{1024, 1, 1}, 3);
      const double rss = peak_rss_mib();
      out["tree_1m"] = {{"threads", 1048576},    {"barriers_per_thread", 10},
                        {"jobs", o->jobs},       {"seconds", tree.median_s},
                        {"events", tree.events}, {"dropped", tree.dropped},
                        {"peak_rss_mib", rss},   {"correct", tree.ok},
                        {"target_seconds", 2.0}, {"target_rss_mib", 2048}};
      if (!tree.error.empty()) out["tree_1m"]["error"] = tree.error;
      pass = pass && tree.ok && tree.dropped == 0 && tree.median_s < 2.0 && rss < 2048;
      if (!o->json)
        std::printf(
            "1M-thread tree reduction: %.3f s with %u OS threads, %llu events, %llu "
            "dropped, peak %.0f MiB\n",
            tree.median_s, o->jobs, (unsigned long long)tree.events,
            (unsigned long long)tree.dropped, rss);
      // The same launch untraced, as a program's repeats of a traced launch run
      // (Executor::launch_untraced): threads per second, beside the traced rate.
      exec->options().trace = false;
      const EmuTiming bare = time_sum_kernel(*exec, lessons::bench::kernels().tree_sum_1024,
                                             Dim3{1024, 1, 1}, Dim3{1024, 1, 1}, 3);
      exec->options().trace = true;
      const double traced_rate = tree.median_s > 0 ? 1048576 / tree.median_s : 0;
      const double untraced_rate = bare.median_s > 0 ? 1048576 / bare.median_s : 0;
      out["tree_1m"]["threads_per_second"] = traced_rate;
      out["tree_1m"]["untraced"] = {
          {"seconds", bare.median_s}, {"threads_per_second", untraced_rate}, {"correct", bare.ok}};
      pass = pass && bare.ok;
      if (!o->json)
        std::printf("  launch rate: %.2f M threads/s traced, %.2f M threads/s untraced (%.3f s)\n",
                    traced_rate / 1e6, untraced_rate / 1e6, bare.median_s);
      pass = time_memory_recording(*exec, out["tree_1m"], o->json) && pass;
      time_memory_checks(*exec, out["tree_1m"], o->json);
    }

    // 2. The Numba kernel: 64 blocks x 512 threads, deterministic single-thread schedule, with the
    // app's default trace capacity.
    if (o->only != "tree") {
      exec->options().jobs = 1;
      exec->options().trace_capacity = ExecOptions{}.trace_capacity;
      const EmuTiming staged = time_sum_kernel(*exec, lessons::bench::kernels().staged_sum,
                                               Dim3{64, 1, 1}, Dim3{512, 1, 1}, 7);
      const double numba =
          o->numba_reference > 0 ? o->numba_reference : numba_seconds(o->numba_script);
      auto& j = out["numba_sum_reduce"];
      j = {{"blocks", 64},
           {"threads_per_block", 512},
           {"seconds", staged.median_s},
           {"events", staged.events},
           {"correct", staged.ok}};
      if (numba > 0) {
        j["numba_simulator_seconds"] = numba;
        j["speedup"] = numba / staged.median_s;
        j["target_speedup"] = 1000;
      } else {
        j["numba_simulator_seconds"] = nullptr;
        j["note"] = "python3-numba not available: pass --numba-seconds";
      }
      pass = pass && staged.ok && (numba <= 0 || numba / staged.median_s >= 1000);
      if (!o->json) {
        std::printf("Numba sum_reduce (64 x 512): %.2f ms", staged.median_s * 1e3);
        if (numba > 0)
          std::printf(" vs %.1f s in Numba's simulator: %.0fx", numba, numba / staged.median_s);
        std::printf("\n");
      }
    }
    out["pass"] = pass;
    if (o->json) std::cout << out.dump(2) << "\n";
    state.exit_code = pass ? 0 : 1;
  });
}

}  // namespace coop::app
