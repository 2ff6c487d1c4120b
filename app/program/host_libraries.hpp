// Thrust in a program run on the emulator. Its headers are the toolkit's own, read as a host
// compiler reads them: the emulator's build otherwise defines __CUDACC__ and __CUDA_ARCH__
// (device/byo/runtime.hpp), with which CCCL takes nvcc's device paths (PTX, CUDA's built-ins). So
// the Thrust headers a program includes are read once, ahead of it, without those macros
// (device/byo/host_libraries_begin.hpp), and its own #include lines then find them read. Thrust
// runs through its C++ system, untraced, and the run says so in one line. (CUB's device code
// cannot be read that way: the emulator has its own, device/byo/cub_block.hpp.)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace coop::app {

// The prelude that reads the Thrust headers `files` include ("" when none does).
std::string host_library_prelude(const std::vector<std::filesystem::path>& files);

// On the GPU, Thrust and CUB are the toolkit's own, built by nvcc, and their kernels run
// untraced: the prelude of a program whose `files` include them says so once as it starts.
std::string gpu_library_prelude(const std::vector<std::filesystem::path>& files);

}  // namespace coop::app
