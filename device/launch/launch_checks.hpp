// The checks every launch passes before any backend sees it: CUDA's limits on the shape, and
// residency (a cooperative grid must fit on the device at once). Built on the occupancy model.
#pragma once

#include <cstdint>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/result.hpp"

namespace coop {

// Checks everything that does not depend on residency: block and grid limits, shared memory,
// cluster shape. Messages name the value and the limit it broke.
Status validate_shape(const LaunchConfig& config, const DeviceProps& device,
                      const KernelResources& kernel);

// Largest grid a cooperative launch of this kernel may use (blocks per SM x SMs).
uint64_t max_cooperative_blocks(const LaunchConfig& config, const DeviceProps& device,
                                const KernelResources& kernel);

// validate_shape plus residency: a cooperative grid must fit on the device at once, and a block
// must fit on one SM at all. This is the single check both backends run before launching.
Status validate_launch(const LaunchConfig& config, const DeviceProps& device,
                       const KernelResources& kernel);

}  // namespace coop
