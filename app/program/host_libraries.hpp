// Thrust and CUB in a program run on the emulator. Their headers are the toolkit's own, read
// as a host compiler reads them: the emulator's build otherwise defines __CUDACC__ and
// __CUDA_ARCH__ (device/byo/runtime.hpp), with which CCCL takes nvcc's device paths (PTX, CUDA's
// built-ins). So the headers a program includes are read once, ahead of it, without those macros
// (device/byo/host_libraries_begin.hpp), and its own #include lines then find them read.
// Thrust runs through its C++ system; CUB's device-wide calls are the emulator's
// (device/byo/include/cub); neither's work is traced, and the run says so in one line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace coop::app {

// The prelude that reads the Thrust and CUB headers `files` include ("" when none does).
std::string host_library_prelude(const std::vector<std::filesystem::path>& files);

}  // namespace coop::app
