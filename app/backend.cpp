#include "app/backend.hpp"

#include "device/gpu/device_query.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::app {

const char* to_string(BackendRequest request) {
  switch (request) {
    case BackendRequest::Gpu:
      return to_string(Backend::Gpu);
    case BackendRequest::Emu:
      return to_string(Backend::Emu);
    case BackendRequest::Auto:
      break;
  }
  return "auto";
}

std::string backend_request_words(std::span<const BackendRequest> allowed) {
  std::string words;
  for (size_t i = 0; i < allowed.size(); ++i) {
    if (i > 0) words += i + 1 == allowed.size() ? " or " : ", ";
    words += to_string(allowed[i]);
  }
  return words;
}

Result<BackendRequest> parse_backend_request(std::string_view word, std::string_view what,
                                             std::span<const BackendRequest> allowed) {
  for (BackendRequest request : allowed)
    if (word == to_string(request)) return request;
  return Status::error(std::string(what) + " '" + std::string(word) + "': choose " +
                       backend_request_words(allowed));
}

Result<BackendChoice> choose_backend(BackendRequest which, std::string_view emulate) {
  BackendChoice choice;
  std::string no_gpu_reason;
  if (which != BackendRequest::Emu) {
    Result<std::unique_ptr<Executor>> gpu = make_gpu_executor(0);
    if (gpu) {
      choice.exec = std::move(*gpu);
      return choice;
    }
    if (which == BackendRequest::Gpu) return gpu.status();
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
  if (which == BackendRequest::Auto) {
    // Plain absence reads as the issue it is; anything else (an old driver) is worth showing.
    const bool plain = no_gpu_reason.find("older") == std::string::npos;
    choice.banner = (plain ? std::string("No CUDA device") : no_gpu_reason) +
                    ": running on the CPU emulator, emulating " + device.name + " (" +
                    device.arch_string() + ")";
  }
  return choice;
}

}  // namespace coop::app
