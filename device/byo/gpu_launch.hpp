// A user program's GPU launch as its nvcc-compiled code hands it to coop's executor
// (gpu_runtime.cuh builds it, gpu_runtime.cpp runs it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "device/byo/launch_shape.hpp"
#include "device/launch/kernel.hpp"
#include "device/trace/event.hpp"

namespace coop::byo {

struct GpuLaunch {
  const char* name = "";
  GpuKernelEntry entry;
  void** args = nullptr;
  LaunchShape shape;
  cudaStream_t stream = nullptr;  // the program's; an untraced launch is queued there
};
cudaError_t launch_gpu(const GpuLaunch& launch);
// A <<<>>> launch's error, kept for the program's next cudaGetLastError or cudaPeekAtLastError as
// CUDA keeps a failed launch's: coopviz may refuse a launch before it reaches CUDA (a block past
// the kernel's __launch_bounds__), and CUDA's runtime would then never hear of it. The program is
// linked with --wrap for both calls (gpu_last_error.cpp), which read it first.
void keep_launch_error(cudaError_t error);
// The kept error (cudaSuccess if none), forgotten when `clear`.
cudaError_t kept_launch_error(bool clear);
// cudaDeviceReset() as the rewritten source calls it: the trace is written and the executor let go
// first, then the device is reset.
cudaError_t device_reset();
// cudaFree, cudaFreeAsync and cudaMallocAsync as the rewritten source calls them on the GPU: as
// on the emulator, a graph's memory freed outside the graph stays the graph's (its next launch
// uses the same address, as CUDA's graph pool gives it), and stream-ordered allocation on a stream
// being captured becomes alloc and free nodes (graphs.hpp); otherwise CUDA's own.
cudaError_t free_device(void* ptr);
cudaError_t free_device_async(void* ptr, cudaStream_t stream = nullptr);
cudaError_t malloc_device_async(void** ptr, size_t bytes, cudaStream_t stream = nullptr);
template <class T>
cudaError_t malloc_device_async(T** ptr, size_t bytes, cudaStream_t stream = nullptr) {
  return malloc_device_async(reinterpret_cast<void**>(ptr), bytes, stream);
}
template <class T>
cudaError_t malloc_device_async(T** ptr, size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}
// A launch that reached CUDA's runtime without passing launch_gpu: a kernel of Thrust or CUB,
// launched from their headers (gpu_library_launches.cpp sees it on its way), counted for the trace
// unless it is one of coopviz's own. Any thread.
// `function` is a host stub's address, or (`handle`) a cudaKernel_t.
void count_library_launch(const void* function, dim3 grid, dim3 block, bool handle = false);
// Where the program's kernels count the launches they make themselves (gpu_runtime.cuh): host
// memory the device writes; the trace's last launch says how many ran, untraced.
void note_device_launch_counter(const unsigned long long* counter);
// Names a cudaMalloc'ed buffer for the trace (d_in[5] rather than an address).
void name_allocation(void* base, size_t bytes, const char* name, ValueType type,
                     uint32_t element_size);

// A program whose device code was compiled apart (gpu_host_runtime.hpp): the kernel of a host
// stub, as a handle CUDA's runtime takes in the stub's place (nullptr, said on stderr, if the
// device code has none); its entry for the executor; and a device variable's address and size
// from its host twin's address.
const void* library_kernel(const void* stub);
GpuKernelEntry library_entry(const void* stub);
cudaError_t library_global(const void* host, void** device, size_t* bytes);
// A copy to (to_device) or from bytes [offset, offset + count) of that device variable, with
// cudaMemcpyAsync on `stream` if `async`, else cudaMemcpy.
cudaError_t copy_symbol(const void* host, bool to_device, void* other, size_t count,
                        size_t offset, cudaMemcpyKind kind, cudaStream_t stream, bool async);

}  // namespace coop::byo
