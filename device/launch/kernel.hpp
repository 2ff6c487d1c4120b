// A lesson kernel as both backends know it: the GPU entry (the __global__ symbol and its
// translation unit's trace sink) and the same source compiled for the emulator.
#pragma once

#include <functional>

#include "device/launch/launch_config.hpp"
#include "device/trace/event.hpp"

namespace coop {

struct GpuKernelEntry {
  const void* function = nullptr;  // the __global__ function (its host stub)
  // Points the kernel's translation unit at a sink; returns a cudaError_t as int.
  int (*set_sink)(const TraceSink& sink, void* stream) = nullptr;
};

template <class... Params>
struct Kernel {
  const char* name = "";
  GpuKernelEntry gpu;                // function == nullptr: not built for the GPU
  void (*emu)(Params...) = nullptr;  // the host-compiled kernel, one call per emulated thread
};

// A launch with its arguments bound, in the form each backend needs.
struct ErasedLaunch {
  const char* name = "";
  GpuKernelEntry gpu;
  void** gpu_args = nullptr;       // cudaLaunchKernel's argument array
  std::function<void()> emu_body;  // one emulated thread
};

}  // namespace coop
