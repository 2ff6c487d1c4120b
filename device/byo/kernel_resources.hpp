// The compiler's resources for a user program's kernels on the emulator: the table coopviz wrote
// beside the program when it built it (device/occupancy/program_resources.hpp), registered with
// the compiled lessons' reports (kernel_resources.hpp) so that the launch checks, the occupancy
// API and cudaFuncGetAttributes all find a kernel by its function pointer.
#pragma once

#include <string>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"

namespace coop::byo {

// Reads and registers the program's table, once. Call before the first launch.
void load_kernel_resources();

// `function`'s resources on `device`: the compiler's; else the defaults, and `note` says which
// kernel has no report and why (a line for stderr; "" when the report was found).
KernelResources kernel_resources(const void* function, const DeviceProps& device,
                                 std::string& note);

}  // namespace coop::byo
