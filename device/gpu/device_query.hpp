// Which CUDA devices this machine has, as DeviceProps, or why none can be used.
#pragma once

#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/result.hpp"

namespace coop {

// All CUDA devices, or an error that says why there are none ("no CUDA-capable device",
// "driver too old for this CUDA runtime", ...). Never throws, never needs a GPU to be called.
Result<std::vector<DeviceProps>> query_gpus();

}  // namespace coop
