// What a user's program built for the GPU (nvcc) includes first: its launches go through coop's
// GPU executor, which points the program's traced Cooperative Groups (gpu_include/) at a trace
// buffer, launches the kernel, and keeps the launch's events; everything else is CUDA's own
// runtime. A traced launch completes before it returns, after all earlier work on the device
// (the stream it names is not used), so streams lose their overlap but keep their order; an
// untraced one (a repeat, ProgramTraces::launch) is the plain kernel queued on the stream it
// names. The launch syntax is rewritten as for the emulator (device/lowering/lowering.hpp).
#pragma once

#include <cuda_runtime.h>
// First: the shim (gpu_include/) that makes `cooperative_groups` coop's traced mirror; the
// recorder below includes it too.
#include <cooperative_groups.h>

#include <cstddef>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

#include "device/byo/gpu_launch.hpp"
#include "device/byo/graphs.hpp"
#include "device/byo/kernel_at.hpp"
#ifdef __CUDACC__
#include "device/gpu/module.cuh"
#include "device/byo/block_record.hpp"
// The kernel as this translation unit, which nvcc compiled with it, knows it.
#define COOP_BYO_ENTRY(function) COOP_GPU_ENTRY(*(function))
#else
// The host half alone (gpu_host_runtime.hpp): the kernel is found in the device code by symbol.
#define COOP_BYO_ENTRY(function) ::coop::byo::library_entry(reinterpret_cast<const void*>(function))
#endif
#include "device/launch/dims.hpp"
#include "device/trace/value.hpp"

namespace coop::byo {

// cudaMalloc and cudaMallocManaged as the rewritten source calls them: named by their variable.
// A pointer to const data (`const float* in` of a parameter struct) is allocated as CUDA's
// void** cast allows: its constness is the program's view, not the allocation's.
template <class T>
std::remove_cv_t<T>** writable(T** ptr) {
  return const_cast<std::remove_cv_t<T>**>(ptr);
}
template <class T>
cudaError_t name_if_allocated(cudaError_t e, const char* name, T** ptr, size_t bytes) {
  if (e == cudaSuccess) {
    constexpr bool untyped = std::is_void_v<T>;
    name_allocation(*writable(ptr), bytes, name, value_type_of<std::remove_cv_t<T>>(),
                    untyped ? 1u : uint32_t(sizeof(std::conditional_t<untyped, char, T>)));
  }
  return e;
}
template <class T>
cudaError_t malloc_as(const char* name, T** ptr, size_t bytes) {
  return name_if_allocated(cudaMalloc(reinterpret_cast<void**>(writable(ptr)), bytes), name, ptr,
                           bytes);
}
template <class T>
cudaError_t malloc_managed_as(const char* name, T** ptr, size_t bytes,
                              unsigned flags = cudaMemAttachGlobal) {
  return name_if_allocated(
      cudaMallocManaged(reinterpret_cast<void**>(writable(ptr)), bytes, flags), name, ptr, bytes);
}

// How a launch passes a kernel's argument: a copy, and for a reference parameter the address
// of what it refers to, which is how the GPU takes a reference (`Kernel(DataElement& e)`).
template <class Param>
using Passed = std::conditional_t<std::is_reference_v<Param>, std::remove_reference_t<Param>*,
                                  std::decay_t<Param>>;
template <class Param, class Arg>
Passed<Param> passed(Arg&& arg) {
  if constexpr (std::is_reference_v<Param>)
    return &arg;
  else
    return std::forward<Arg>(arg);
}

// The kernel's arguments copied out of the void* array a launch passes (a graph node keeps them).
template <class... Params, size_t... Indices>
std::tuple<Passed<Params>...> copy_arguments(void** args, std::index_sequence<Indices...>) {
  return {*static_cast<Passed<Params>*>(args[Indices])...};
}

template <class... Params>
BoundLaunch bound_launch(const char* name, void (*function)(Params...), const LaunchShape& shape,
                         std::tuple<Passed<Params>...> bound);

// One launch of `function` with its arguments in an array (cudaLaunchKernel's form); on a stream
// being captured, a node of the captured graph (graphs.hpp) instead.
template <class... Params>
cudaError_t launch_array(const char* name, void (*function)(Params...), void** args,
                         const LaunchShape& shape, cudaStream_t stream = nullptr) {
  if (stream && capturing(stream))
    return capture_launch(
        stream, reinterpret_cast<const void*>(function),
        dim3(shape.grid.x, shape.grid.y, shape.grid.z),
        dim3(shape.block.x, shape.block.y, shape.block.z), shape.dynamic_smem,
        bound_launch(name, function, shape,
                     copy_arguments<Params...>(args, std::index_sequence_for<Params...>{})));
  GpuLaunch l;
  l.name = name;
  l.entry = COOP_BYO_ENTRY(function);
  l.args = args;
  l.shape = shape;
  l.stream = stream;
  return launch_gpu(l);
}

// A launch of `function` with a copy of its arguments, to run when a graph node runs.
template <class... Params>
BoundLaunch bound_launch(const char* name, void (*function)(Params...), const LaunchShape& shape,
                         std::tuple<Passed<Params>...> bound) {
  return [name, function, shape, bound]() mutable {
    void* pointers[sizeof...(Params) + 1] = {};
    point_at(bound, pointers);
    return launch_array(name, function, pointers, shape);
  };
}

// The same with the arguments as values, converted to the kernel's parameter types.
template <class... Params, class... Args>
cudaError_t launch_values(const char* name, void (*function)(Params...), const LaunchShape& shape,
                          cudaStream_t stream, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "a kernel launch with the wrong number of arguments");
  std::tuple<Passed<Params>...> bound(passed<Params>(std::forward<Args>(args))...);
  void* pointers[sizeof...(Params) + 1] = {};
  point_at(bound, pointers);
  return launch_array(name, function, pointers, shape, stream);
}

// Device code may launch and cast too: nvcc compiles these for both sides (the host half's
// compiler knows no such qualifiers).
#ifdef __CUDACC__
#define COOP_BYO_HOST_DEVICE __host__ __device__
#else
#define COOP_BYO_HOST_DEVICE
#endif

#if defined(__CUDACC__) && defined(__CUDACC_RDC__)
// Kernels' own launches (CUDA Dynamic Parallelism, built as relocatable device code): the plain
// kernel, untraced, counted in host memory the device writes, so that the host reads the count
// without waiting for the device (gpu_runtime.cpp puts it in the trace). A program of several
// files has one counter, beside its one trace sink (device/gpu/recorder.cuh): the first file to
// launch sets it, and the kernels of every file count into it.
#ifdef COOP_GPU_LINKED_STATE
COOP_GPU_LINKED_STATE __device__ unsigned long long* coop_device_launches;
#else
static __device__ unsigned long long* coop_device_launches = nullptr;
#endif
inline void count_device_launches() {
  static const bool ready = [] {
    // The program's own memory, registered: still there to read when CUDA has gone at exit.
    auto* host = static_cast<unsigned long long*>(std::aligned_alloc(4096, 4096));
    void* on_device = nullptr;
    if (!host) return false;
    *host = 0;
    if (cudaHostRegister(host, 4096, cudaHostRegisterMapped) != cudaSuccess ||
        cudaHostGetDevicePointer(&on_device, host, 0) != cudaSuccess ||
        cudaMemcpyToSymbol(coop_device_launches, &on_device, sizeof on_device) != cudaSuccess)
      return false;
    note_device_launch_counter(host);
    return true;
  }();
  (void)ready;
}
#endif

template <class... Params>
struct Launcher {
  const char* name;
  void (*function)(Params...);
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
  COOP_BYO_HOST_DEVICE void operator()(std::type_identity_t<Params>... args) const {
#if defined(__CUDA_ARCH__) && defined(__CUDACC_RDC__)
    if (coop_device_launches) atomicAdd_system(coop_device_launches, 1ull);
    ::coop::gpu::in_traced_grid();  // the traced grid claims its trace before any child runs
    function<<<grid, block, smem, stream>>>(args...);
#elif defined(__CUDA_ARCH__)
    // nvcc compiles this side of every launcher, also the host's: only a build that found no
    // kernel launching a kernel (device_launch_build.hpp) gets here, and then says so.
    printf("coopviz: kernel %s was launched from a kernel, but the program was not built as "
           "relocatable device code (coopviz run --rdc builds it so)\n", name);
    __trap();
#else
#ifdef __CUDACC_RDC__
    count_device_launches();
#endif
    LaunchShape shape;
    shape.grid = dims_of(grid);
    shape.block = dims_of(block);
    shape.dynamic_smem = smem;
    keep_launch_error(launch_values(name, function, shape, stream, args...));
#endif
  }
};

// `k<<<grid, block, smem, stream>>>` as the rewritten source spells it.
template <class... Params>
COOP_BYO_HOST_DEVICE Launcher<Params...> launcher(const char* name, void (*function)(Params...),
                                                  dim3 grid, dim3 block, size_t smem = 0,
                                                  cudaStream_t stream = nullptr) {
  return {name, function, grid, block, smem, stream};
}

// cudaLaunchKernel and cudaLaunchCooperativeKernel as the rewritten source calls them.
template <class... Params>
cudaError_t launch_from_array(const char* name, void (*function)(Params...), dim3 grid, dim3 block,
                              void** args, size_t smem, cudaStream_t stream, bool cooperative) {
  LaunchShape shape;
  shape.grid = dims_of(grid);
  shape.block = dims_of(block);
  shape.dynamic_smem = smem;
  shape.cooperative = cooperative;
  return launch_array(name, function, args, shape, stream);
}
template <class... Params>
cudaError_t launch_kernel(const char* name, void (*function)(Params...), dim3 grid, dim3 block,
                          void** args, size_t smem = 0, cudaStream_t stream = nullptr) {
  return launch_from_array(name, function, grid, block, args, smem, stream, false);
}
template <class... Params>
cudaError_t launch_cooperative(const char* name, void (*function)(Params...), dim3 grid, dim3 block,
                               void** args, size_t smem = 0, cudaStream_t stream = nullptr) {
  return launch_from_array(name, function, grid, block, args, smem, stream, true);
}

template <class... Params, class... Args>
cudaError_t launch_ex(const char* name, const cudaLaunchConfig_t* config,
                      void (*function)(Params...), Args&&... args) {
  return launch_values(
      name, function,
      shape_of(*config, cudaLaunchAttributeClusterDimension, cudaLaunchAttributeCooperative),
      config->stream, std::forward<Args>(args)...);
}

// `(void*)k` as the rewritten source spells it (device/lowering): the kernel's address, noted
// with its name and a way to bind it to arguments, for graph kernel nodes (graphs.hpp), which
// are given only the address. Any other operand of such a cast (also in device code) is returned
// as the cast would.
template <class... Params>
COOP_BYO_HOST_DEVICE void* kernel_pointer(const char* name, void (*function)(Params...)) {
#ifndef __CUDA_ARCH__
  register_kernel(reinterpret_cast<const void*>(function), name,
                  [name, function](dim3 grid, dim3 block, size_t smem, void** args) -> BoundLaunch {
                    LaunchShape shape;
                    shape.grid = dims_of(grid);
                    shape.block = dims_of(block);
                    shape.dynamic_smem = smem;
                    return bound_launch(
                        name, function, shape,
                        copy_arguments<Params...>(args, std::index_sequence_for<Params...>{}));
                  });
#endif
  return (void*)function;  // NOLINT: the C cast the program wrote
}
template <class T>
COOP_BYO_HOST_DEVICE void* kernel_pointer(const char*, T* pointer) {
  return (void*)pointer;  // NOLINT: as the program wrote it (it may drop const or volatile)
}
template <class T>
  requires(!std::is_pointer_v<T>)
COOP_BYO_HOST_DEVICE void* kernel_pointer(const char*, T value) {
  return (void*)value;  // NOLINT: as above (an integer, nullptr)
}

}  // namespace coop::byo
