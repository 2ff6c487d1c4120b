// Device descriptions for machines without a GPU: one preset per compute capability.
#pragma once

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

}  // namespace coop
