#include "app/backend.hpp"

#include "device/gpu/device_query.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::app {

Result<BackendChoice> choose_backend(std::string_view which, std::string_view emulate) {
  if (which != "auto" && which != "gpu" && which != "emu")
    return Status::error("--backend '" + std::string(which) + "': choose auto, gpu or emu");
  BackendChoice choice;
  std::string no_gpu_reason;
  if (which != "emu") {
    Result<std::unique_ptr<Executor>> gpu = make_gpu_executor(0);
    if (gpu) {
      choice.exec = std::move(*gpu);
      return choice;
    }
    if (which == "gpu") return gpu.status();
    no_gpu_reason = gpu.message();
  }
  DeviceProps device;
  if (!emulate.empty()) {
    Result<DeviceProps> preset = find_preset(emulate);
    if (!preset) return preset.status();
    device = *preset;
  } else if (Result<std::vector<DeviceProps>> gpus = query_gpus(); gpus) {
    device = gpus->front();  // imitate the GPU that is here
  } else {
    device = default_emulated_device();
  }
  choice.exec = make_emu_executor(device);
  if (which == "auto") {
    // Plain absence reads as the issue it is; anything else (an old driver) is worth showing.
    const bool plain = no_gpu_reason.find("older") == std::string::npos;
    choice.banner = (plain ? std::string("No CUDA device") : no_gpu_reason) +
                    ": running on the CPU emulator, emulating " + device.name + " (" +
                    device.arch_string() + ")";
  }
  return choice;
}

}  // namespace coop::app
