// coopviz devices [--json]: the GPUs here (or why there are none) and the emulator's presets.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/commands.hpp"
#include "device/gpu/device_query.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::app {
namespace {

nlohmann::json device_json(const DeviceProps& d) {
  return {{"name", d.name},
          {"cc", d.cc_string()},
          {"arch", d.arch_string()},
          {"sm_count", d.sm_count},
          {"max_threads_per_sm", d.max_threads_per_sm},
          {"max_blocks_per_sm", d.max_blocks_per_sm},
          {"regs_per_sm", d.regs_per_sm},
          {"smem_per_sm", d.smem_per_sm},
          {"smem_per_block_optin", d.smem_per_block_optin},
          {"cooperative_launch", d.cooperative_launch},
          {"cluster_launch", d.cluster_launch}};
}

}  // namespace

void register_devices(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("devices", "Show the CUDA devices and the emulator's presets");
  auto json_out = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_out, "Print JSON");
  cmd->callback([json_out, &state] {
    Result<std::vector<DeviceProps>> gpus = query_gpus();
    if (*json_out) {
      nlohmann::json out;
      out["gpus"] = nlohmann::json::array();
      if (gpus)
        for (const DeviceProps& d : *gpus) out["gpus"].push_back(device_json(d));
      else
        out["gpu_error"] = gpus.message();
      out["emulator_presets"] = nlohmann::json::array();
      for (const DeviceProps& d : device_presets()) out["emulator_presets"].push_back(device_json(d));
      std::cout << out.dump(2) << "\n";
    } else {
      if (gpus) {
        for (size_t i = 0; i < gpus->size(); ++i) {
          const DeviceProps& d = (*gpus)[i];
          std::cout << "GPU " << i << ": " << d.name << "  (" << d.arch_string() << ", "
                    << d.sm_count << " SMs)\n";
        }
      } else {
        std::cout << gpus.message() << "\n";
      }
      std::cout << "Emulator presets:";
      for (const DeviceProps& d : device_presets()) std::cout << " " << d.arch_string();
      std::cout << "\n";
    }
    state.exit_code = 0;
  });
}

}  // namespace coop::app
