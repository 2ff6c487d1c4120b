// What a user's program built for the GPU (nvcc) includes first: its launches go through coop's
// GPU executor, which points the program's traced Cooperative Groups (gpu_include/) at a trace
// buffer, launches the kernel, and keeps the launch's events; everything else is CUDA's own
// runtime. The launch syntax is rewritten as for the emulator (device/lowering/lowering.hpp).
#pragma once

#include <cuda_runtime.h>
// First: the shim (gpu_include/) that makes `cooperative_groups` coop's traced mirror; the
// recorder below includes it too.
#include <cooperative_groups.h>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "device/byo/gpu_launch.hpp"
#include "device/gpu/module.cuh"
#include "device/launch/dims.hpp"
#include "device/trace/value.hpp"

namespace coop::byo {

inline ::coop::Dim3 dims(dim3 d) { return {d.x, d.y, d.z}; }

template <class T>
cudaError_t malloc_as(const char* name, T** ptr, size_t bytes, unsigned flags = 0) {
  (void)flags;
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
  if (e == cudaSuccess) {
    constexpr bool untyped = std::is_void_v<T>;
    name_allocation(*ptr, bytes, name, value_type_of<std::remove_cv_t<T>>(),
                    untyped ? 1u : uint32_t(sizeof(std::conditional_t<untyped, char, T>)));
  }
  return e;
}

template <class... P>
struct Launcher {
  const char* name;
  void (*function)(P...);
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
  void operator()(std::type_identity_t<P>... args) const {
    std::tuple<std::decay_t<P>...> bound(args...);
    void* pointers[sizeof...(P) + 1] = {};
    std::apply([&](auto&... a) {
      int i = 0;
      ((pointers[i++] = static_cast<void*>(&a)), ...);
    }, bound);
    GpuLaunch l;
    l.name = name;
    l.entry = COOP_GPU_ENTRY(*function);
    l.args = pointers;
    l.grid = dims(grid);
    l.block = dims(block);
    l.dynamic_smem = smem;
    launch_gpu(l);
  }
};

template <class... P>
Launcher<P...> launcher(const char* name, void (*function)(P...), dim3 grid, dim3 block,
                        size_t smem = 0, cudaStream_t stream = nullptr) {
  return {name, function, grid, block, smem, stream};
}

template <class... P>
cudaError_t launch_cooperative(const char* name, void (*function)(P...), dim3 grid, dim3 block,
                               void** args, size_t smem = 0, cudaStream_t = nullptr) {
  GpuLaunch l;
  l.name = name;
  l.entry = COOP_GPU_ENTRY(*function);
  l.args = args;
  l.grid = dims(grid);
  l.block = dims(block);
  l.dynamic_smem = smem;
  l.cooperative = true;
  return launch_gpu(l);
}

template <class... P, class... A>
cudaError_t launch_ex(const char* name, const cudaLaunchConfig_t* config, void (*function)(P...),
                      A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "cudaLaunchKernelEx: wrong number of arguments");
  std::tuple<std::decay_t<P>...> bound(std::forward<A>(args)...);
  void* pointers[sizeof...(P) + 1] = {};
  std::apply([&](auto&... a) {
    int i = 0;
    ((pointers[i++] = static_cast<void*>(&a)), ...);
  }, bound);
  GpuLaunch l;
  l.name = name;
  l.entry = COOP_GPU_ENTRY(*function);
  l.args = pointers;
  l.grid = dims(config->gridDim);
  l.block = dims(config->blockDim);
  l.dynamic_smem = config->dynamicSmemBytes;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    if (a.id == cudaLaunchAttributeClusterDimension) {
      l.clustered = true;
      l.cluster = {a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
    } else if (a.id == cudaLaunchAttributeCooperative) {
      l.cooperative = a.val.cooperative != 0;
    }
  }
  return launch_gpu(l);
}

}  // namespace coop::byo
