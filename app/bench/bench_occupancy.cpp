// coopviz bench occupancy [--arch sm_XX] [--json]: every block size 1..1024 x 64 register counts x
// 32 shared-memory sizes through the occupancy engine for one architecture (the GUI's charts need
// this to be fast).
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli/commands.hpp"
#include "device/occupancy/presets.hpp"
#include "device/occupancy/sweep.hpp"

namespace coop::app {
namespace {

struct OccupancyBenchOptions {
  std::string arch = "sm_90";
  bool json = false;
};

int bench_occupancy(const OccupancyBenchOptions& o) {
  Result<DeviceProps> d = find_preset(o.arch);
  if (!d) return usage_error(d.message());
  sweep_grid(*d, 4, 4);  // warm-up: first-touch of code and data
  const auto start = std::chrono::steady_clock::now();
  const SweepGridTotals totals = sweep_grid(*d, 64, 32);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double ns_each = seconds * 1e9 / double(totals.configurations);
  if (o.json) {
    std::cout << nlohmann::json{{"bench", "occupancy"},
                                {"arch", d->arch_string()},
                                {"configurations", totals.configurations},
                                {"block_sizes", 1024},
                                {"register_counts", 64},
                                {"smem_sizes", 32},
                                {"active_block_sum", totals.active_block_sum},
                                {"seconds", seconds},
                                {"ns_per_configuration", ns_each},
                                {"target_seconds", 1.0},
                                {"within_target", seconds < 1.0}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << "occupancy sweep on " << d->arch_string() << ": " << totals.configurations
              << " configurations (1024 block sizes x 64 register counts x 32 shared-memory sizes)"
              << " in " << seconds << " s (" << ns_each << " ns each; target < 1 s)\n";
  }
  return 0;
}

}  // namespace

void register_bench_occupancy(CLI::App& bench, CliState& state) {
  auto o = std::make_shared<OccupancyBenchOptions>();
  auto* cmd = bench.add_subcommand("occupancy", "Time a full occupancy sweep of one architecture");
  cmd->add_option("--arch", o->arch, "Architecture preset")->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, &state] { state.exit_code = bench_occupancy(*o); });
}

}  // namespace coop::app
