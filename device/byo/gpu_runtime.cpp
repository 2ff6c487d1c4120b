// The GPU side of a user's program: its launches, recorded by coop's GPU executor (see
// gpu_runtime.cuh). Memory, streams and events are CUDA's own.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "device/byo/gpu_launch.hpp"
#define COOP_BYO_KEEP_CUDA_NAMES 1
#include "device/byo/graphs.hpp"
#include "device/byo/program_traces.hpp"

namespace coop::byo {
namespace {

std::unique_ptr<Executor> gpu_or_exit() {
  Result<std::unique_ptr<Executor>> gpu = make_gpu_executor(0);
  if (!gpu) {
    std::fprintf(stderr, "coopviz: no GPU to run on: %s\n", gpu.status().message().c_str());
    std::exit(2);
  }
  return std::move(*gpu);
}

ProgramTraces& traces() {
  static ProgramTraces t(gpu_or_exit());
  return t;
}

}  // namespace

cudaError_t launch_gpu(const GpuLaunch& l) {
  // A traced launch runs on the executor's own stream and waits for the kernel. What the program
  // queued before (copies, memsets and untraced launches on its streams, in any order CUDA
  // allows) must be done first, as it would be on the program's stream: so it waits for the
  // whole device. An untraced launch is queued on the program's stream as nvcc's code would.
  static cudaError_t waited;
  waited = cudaSuccess;
  const auto wait = [] { return (waited = cudaDeviceSynchronize()) == cudaSuccess; };
  ErasedLaunch e;
  e.name = l.name;
  e.gpu = l.entry;
  e.gpu_args = l.args;
  const Status s = traces().launch(e, l.shape.config(), l.stream, wait);
  if (waited != cudaSuccess) return waited;
  if (cooperative_grid_too_large(s)) return cudaErrorCooperativeLaunchTooLarge;
  return s.ok() ? cudaSuccess : cudaErrorLaunchFailure;
}

cudaError_t device_reset() {
  traces().finish();
  return cudaDeviceReset();
}

cudaError_t free_device(void* ptr) {
  if (ptr && graph_memory(ptr)) return cudaSuccess;
  return ::cudaFree(ptr);
}

cudaError_t free_device_async(void* ptr, cudaStream_t stream) {
  if (capturing(stream)) return capture_free(stream, ptr);
  if (ptr && graph_memory(ptr)) return cudaSuccess;
  return ::cudaFreeAsync(ptr, stream);
}

cudaError_t malloc_device_async(void** ptr, size_t bytes, cudaStream_t stream) {
  if (capturing(stream)) return capture_alloc(stream, ptr, bytes);
  return ::cudaMallocAsync(ptr, bytes, stream);
}

void name_allocation(void* base, size_t bytes, const char* name, ValueType type,
                     uint32_t element_size) {
  traces().name_allocation(base, bytes, name, type, element_size);
}

}  // namespace coop::byo
