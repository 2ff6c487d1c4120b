// What a lesson's kernels.cu needs to hand its kernels to the GPU executor.
#pragma once

#include "device/gpu/recorder.cuh"
#include "device/launch/kernel.hpp"

namespace coop::gpu {

// This translation unit's sink setter, with CUDA types erased for host code.
static inline int set_trace_sink_erased(const TraceSink& sink, void* stream) {
  return int(set_trace_sink(sink, static_cast<cudaStream_t>(stream)));
}

}  // namespace coop::gpu

// The GPU entry of a __global__ function defined in this translation unit.
#define COOP_GPU_ENTRY(kernel) \
  ::coop::GpuKernelEntry { reinterpret_cast<const void*>(&(kernel)), &::coop::gpu::set_trace_sink_erased }
