// Device descriptions for machines without a GPU: one preset per compute capability nvcc 13 builds
// for (7.5 to 12.1), with the per-SM limits NVIDIA publishes for that compute capability and the
// SM count of one product that has it.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/result.hpp"

namespace coop {

// Every preset, in compute-capability order.
const std::vector<DeviceProps>& device_presets();

// "sm_90", "90", "9.0" -> the preset; an error lists the known ones.
Result<DeviceProps> find_preset(std::string_view arch_or_cc);

// The device the emulator imitates when no GPU is present: an H100-like sm_90.
const DeviceProps& default_emulated_device();

// One shared-memory size the SM can be configured to (the L1/shared "carveout"), and the range of
// cudaFuncAttributePreferredSharedMemoryCarveout percentages that select it.
struct CarveoutOption {
  size_t smem_per_sm = 0;  // bytes of shared memory the SM is configured with
  int min_percent = 0;     // smallest preference (0..100) that maps here
  int max_percent = 0;     // largest preference that maps here
};

// The configurable shared-memory sizes of `device`, smallest first, found by asking the occupancy
// engine (cuda_occupancy.h) which size each preference percentage maps to.
std::vector<CarveoutOption> carveout_options(const DeviceProps& device);

}  // namespace coop
