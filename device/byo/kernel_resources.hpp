// The compiler's resources for a user program's kernels on the emulator: the table coopviz wrote
// beside the program when it built it (device/occupancy/program_resources.hpp), registered with
// the compiled lessons' reports (kernel_resources.hpp) so that the launch checks, the occupancy
// API and cudaFuncGetAttributes all find a kernel by its function pointer.
#pragma once

#include <map>
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

// What the compiler's report says of `function` on `device`, as parameters of its launch's trace:
// "registers per thread", and for a __launch_bounds__ kernel "launch bounds max threads" (PTX
// .maxntid); none when the report has no row for it.
std::map<std::string, std::string> kernel_resource_params(const void* function,
                                                          const DeviceProps& device);

}  // namespace coop::byo
