#include "device/occupancy/presets.hpp"

#include <string>

namespace coop {
namespace {

// Fields not set here keep DeviceProps' defaults (1024 threads/block, 64 K registers, warp 32).
DeviceProps preset(std::string name, int major, int minor, int sms, int threads_per_sm,
                   int blocks_per_sm, size_t smem_per_sm, size_t smem_optin, size_t reserved) {
  DeviceProps d;
  d.name = std::move(name);
  d.source = "preset";
  d.cc_major = major;
  d.cc_minor = minor;
  d.sm_count = sms;
  d.max_threads_per_sm = threads_per_sm;
  d.max_blocks_per_sm = blocks_per_sm;
  d.smem_per_sm = smem_per_sm;
  d.smem_per_block_optin = smem_optin;
  d.reserved_smem_per_block = reserved;
  d.cluster_launch = major >= 9;
  d.max_cluster_size = major >= 9 ? 8 : 0;
  return d;
}

std::vector<DeviceProps> make_presets() {
  std::vector<DeviceProps> v;
  v.push_back(preset("NVIDIA H100", 9, 0, 132, 2048, 32, 233472, 232448, 1024));
  v.push_back(preset("NVIDIA B200", 10, 0, 148, 2048, 32, 233472, 232448, 1024));
  return v;
}

}  // namespace

const std::vector<DeviceProps>& device_presets() {
  static const std::vector<DeviceProps> presets = make_presets();
  return presets;
}

Result<DeviceProps> find_preset(std::string_view text) {
  std::string s(text);
  if (s.rfind("sm_", 0) == 0) s = s.substr(3);
  std::string known;
  for (const DeviceProps& d : device_presets()) {
    const std::string digits = std::to_string(d.cc_major * 10 + d.cc_minor);
    if (s == digits || s == d.cc_string()) return d;
    known += (known.empty() ? "" : ", ") + d.arch_string();
  }
  return Status::error("unknown architecture '" + std::string(text) + "': known presets are " +
                       known);
}

const DeviceProps& default_emulated_device() { return device_presets()[0]; }

}  // namespace coop
