// A GPU build of a program whose kernels launch kernels (CUDA Dynamic Parallelism): nvcc builds
// those only as relocatable device code linked with the device runtime (cudadevrt), and only
// whole (the device half compiled apart, gpu_host_runtime.hpp, has no device link step). The
// emulator needs nothing of it (device/byo/device_launches.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace coop::app {

// Why the program's GPU build needs relocatable device code, or "" when it does not: a kernel of
// its `files` launches a kernel (device/lowering/device_code.hpp), or it was `asked` for
// (`coopviz run --rdc`, or nvcc's own -rdc=true).
std::string relocatable_device_code_reason(const std::vector<std::filesystem::path>& files,
                                           bool asked);

// nvcc's command `cmd` (nvcc first) made to build relocatable device code and link cudadevrt.
void add_relocatable_device_code(std::vector<std::string>& cmd);

}  // namespace coop::app
