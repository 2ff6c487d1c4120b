#include "device/occupancy/presets.hpp"

#include <string>

#include "device/occupancy/occupancy.hpp"

namespace coop {
namespace {

// Per compute capability: the CUDA Programming Guide's "Technical Specifications per Compute
// Capability" tables (resident threads and blocks per SM, shared memory per SM and per block with
// opt-in; 64 K registers per SM and per block, 255 per thread, 48 KB per block without opt-in on
// all of them). Since compute capability 8.0 the driver reserves 1 KB of shared memory per block,
// which is why the per-block opt-in limit is 1 KB below the per-SM size.
// The SM count is a product fact, not a compute-capability one: each row names the product.
struct PresetRow {
  const char* product;
  int major, minor;
  int sm_count;
  int threads_per_sm;
  int blocks_per_sm;
  int smem_per_sm_kb;
  int smem_per_block_optin_kb;
  int boost_clock_mhz;  // the product's published boost clock; 0 where the emulator does not know
                        // it
};

constexpr PresetRow kRows[] = {
    {"NVIDIA Tesla T4", 7, 5, 40, 1024, 16, 64, 64, 1590},
    {"NVIDIA A100", 8, 0, 108, 2048, 32, 164, 163, 1410},
    {"NVIDIA GeForce RTX 3090", 8, 6, 82, 1536, 16, 100, 99, 1695},
    {"NVIDIA Jetson AGX Orin", 8, 7, 16, 1536, 16, 164, 163, 1300},
    {"NVIDIA L4", 8, 9, 58, 1536, 24, 100, 99, 2040},
    {"NVIDIA H100", 9, 0, 132, 2048, 32, 228, 227, 1980},
    {"NVIDIA B200", 10, 0, 148, 2048, 32, 228, 227, 0},
    {"NVIDIA B300", 10, 3, 160, 2048, 32, 228, 227, 0},
    {"NVIDIA Jetson AGX Thor", 11, 0, 20, 1536, 24, 228, 227, 0},
    {"NVIDIA GeForce RTX 5090", 12, 0, 170, 1536, 24, 100, 99, 2407},
    {"NVIDIA DGX Spark (GB10)", 12, 1, 48, 1536, 24, 100, 99, 0},
};

DeviceProps from_row(const PresetRow& r) {
  DeviceProps d;
  d.name = r.product;
  d.source = "preset";
  d.cc_major = r.major;
  d.cc_minor = r.minor;
  d.sm_count = r.sm_count;
  d.max_threads_per_sm = r.threads_per_sm;
  d.max_blocks_per_sm = r.blocks_per_sm;
  d.regs_per_sm = 64 * 1024;
  d.regs_per_block = 64 * 1024;
  d.max_regs_per_thread = 255;
  d.smem_per_sm = size_t(r.smem_per_sm_kb) * 1024;
  d.smem_per_block = 48 * 1024;
  d.smem_per_block_optin = size_t(r.smem_per_block_optin_kb) * 1024;
  d.clock_mhz = r.boost_clock_mhz;
  d.reserved_smem_per_block = r.major >= 8 ? 1024 : 0;
  d.cooperative_launch = true;
  // Thread block clusters arrived with compute capability 9.0; 8 blocks is the portable limit.
  d.cluster_launch = r.major >= 9;
  d.max_cluster_size = d.cluster_launch ? 8 : 0;
  return d;
}

std::vector<DeviceProps> make_presets() {
  std::vector<DeviceProps> v;
  for (const PresetRow& r : kRows) v.push_back(from_row(r));
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

const DeviceProps& default_emulated_device() {
  static const DeviceProps h100 = *find_preset("sm_90");
  return h100;
}

std::vector<CarveoutOption> carveout_options(const DeviceProps& device) {
  std::vector<CarveoutOption> options;
  for (int percent = 0; percent <= 100; ++percent) {
    Result<size_t> bytes = carveout_smem_per_sm(device, percent);
    if (!bytes) continue;
    if (!options.empty() && options.back().smem_per_sm == *bytes) {
      options.back().max_percent = percent;
      continue;
    }
    options.push_back({*bytes, percent, percent});
  }
  return options;
}

}  // namespace coop
