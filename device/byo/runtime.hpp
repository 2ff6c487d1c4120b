// The CUDA runtime a user's own CUDA program sees when coopviz runs it on the emulator: CUDA's own
// runtime headers (every type, enum, macro and declaration of the toolkit's cuda_runtime.h, read
// through byo/include/cuda_runtime.h), implemented over the emulator executor (memory is host
// memory, streams run in order, events read the host clock) by byo/runtime.cpp, and kernel
// launches that record one traced launch each. A declared function the emulator does not
// implement links to a generated stub (tools/cuda_stubs) that returns cudaErrorNotSupported and
// names it. `coopviz run FILE.cu` compiles the program with the host compiler against this header
// (through the shim headers in byo/include/) and byo/runtime.cpp.
//
// Launch syntax is rewritten before compiling (device/emu/lowering.hpp): `k<<<g, b, s, st>>>(a)`
// becomes `::coop::byo::launcher("k", k, g, b, s, st)(a)`, and cudaLaunchCooperativeKernel and
// cudaLaunchKernelEx calls get the kernel's name and typed pointer the same way.
#pragma once

#define COOP_BYO_RUNTIME 1
// Thrust's algorithms run on the host here, through its C++ system: its CUDA system launches
// CUB's kernels, whose device code is PTX (app/program/host_libraries.hpp says more).
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include <cuda_runtime.h>
// The device runtime's named streams (CDP2), which CUDA's header declares for nvcc alone: a
// kernel's launches into them (device_launches.hpp).
#ifndef cudaStreamTailLaunch
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#endif
#ifndef cudaStreamFireAndForget
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

#include "device/byo/cuda_functional.hpp"
#include "device/byo/graphs.hpp"
#include "device/byo/kernel_at.hpp"
#include "device/byo/launch_shape.hpp"
#include "device/byo/not_supported.hpp"
#include "device/launch/dims.hpp"
#include "device/trace/value.hpp"

#include "device/byo/device_functions.hpp"
#include "device/byo/device_intrinsics.hpp"
#include "device/emu/cg/warp_intrinsics.hpp"
#include "device/emu/cg/warp_match_reduce.hpp"
#include "device/emu/cg_emu.hpp"
#include "device/emu/kernel_env.hpp"
#include "device/byo/block_record.hpp"

namespace coop {
struct DeviceProps;
}

namespace coop::byo {

// What cudaGetDeviceProperties and cudaMemGetInfo say the device holds (an H100's 80 GB); the
// program's buffers are the host's memory.
inline constexpr size_t kGlobalMemory = size_t(80) << 30;

// The device the emulator imitates (COOPVIZ_ARCH's preset), for the device queries
// (byo/device_query.cpp).
const DeviceProps& emulated_device();

// Leaves `e` for the program's next cudaGetLastError, and returns it.
cudaError_t fail(cudaError_t e);

// cudaMalloc with what the rewritten source knows: the variable's name and element type, so the
// trace shows addresses as d_in[5]; `api` and `where` say where it was made, for fault reports.
cudaError_t allocate(void** ptr, size_t bytes, const char* name, ValueType type,
                     uint32_t element_size, const char* api = "cudaMalloc",
                     std::source_location where = std::source_location::current());
template <class T>
cudaError_t malloc_as(const char* name, T** ptr, size_t bytes, unsigned = 0,
                      std::source_location where = std::source_location::current(),
                      const char* api = "cudaMalloc") {
  void* p = nullptr;
  constexpr uint32_t size = std::is_void_v<T> ? 1 : uint32_t(sizeof(std::conditional_t<std::is_void_v<T>, char, T>));
  const cudaError_t e =
      allocate(&p, bytes, name, value_type_of<std::remove_cv_t<T>>(), size, api, where);
  *ptr = static_cast<T*>(p);
  return e;
}

// Memory pools give back what they keep past their release threshold when the program
// synchronizes (memory_pools.cpp).
void release_pools_to_threshold();

// Managed memory is host memory here too, and starts as zeros: what `allocated` says, once the
// fresh allocation at `p` is cleared.
cudaError_t managed_fresh(void* p, size_t bytes, cudaError_t allocated);
template <class T>
cudaError_t malloc_managed_as(const char* name, T** ptr, size_t bytes, unsigned flags = 0,
                              std::source_location where = std::source_location::current()) {
  const cudaError_t e = malloc_as(name, ptr, bytes, flags, where, "cudaMallocManaged");
  return managed_fresh(const_cast<void*>(static_cast<const void*>(*ptr)), bytes, e);
}

// [SECTION] Launches

// What a kernel's launch needs from the runtime: one erased call, its name, its configuration.
struct LaunchRequest {
  const char* name = "";
  const void* function = nullptr;  // the kernel's address, for attributes and occupancy queries
  std::function<void()> body;      // one emulated thread
  std::function<void()> unhooked_body;  // the same on the kernel's unhooked copy; empty: none
  LaunchShape shape;
  cudaStream_t stream = nullptr;   // a stream being captured takes the launch as a graph node
};
cudaError_t launch(const LaunchRequest& request);

// Why the program's last failed launch failed, in the emulator's words ("kernel K: deadlock: no
// thread can make progress" and where each thread waits), or "" when none failed since the last
// call: each problem is taken once. The kernel's lines are named `file`:N, for an exercise's
// harness, whose program compiles the student's file under its own name (#line).
std::string take_launch_problem(const char* file);
// Whether a kernel's assert() failed since the last call (device_assert.cpp).
bool take_device_assert();

// How many launches the program's trace file holds so far: an exercise's hidden cases say which
// launches each case made, so that the checker can read every case's own launches in the trace.
size_t traced_launches();

// The data races of launch `index` of the program (counting from 0), as a JSON array in the form
// of `coopviz run --races --json`, each race's lines named in `file`; "[]" unless coopviz asked
// for races (COOPVIZ_RACES=1, with every load and store recorded). A hidden case says its own.
std::string launch_races(size_t index, const char* file);

// Resources of a kernel as the emulator models them (the registers a GPU build would use are not
// known here: the emulated architecture's default), for cudaFuncGetAttributes and occupancy.
cudaError_t function_attributes(const void* function, cudaFuncAttributes* attributes);
cudaError_t set_function_attribute(const void* function, cudaFuncAttribute attribute, int value);
cudaError_t max_active_blocks(int* blocks, const void* function, int block_size,
                              size_t dynamic_smem);

// The kernel's copy compiled without the memory hooks, once the program has one
// (unhooked_copy.hpp), else null.
const void* unhooked_kernel(const void* function);

// How a launch keeps a kernel's argument: a copy, as CUDA copies it, except for a parameter
// that is a reference to something the kernel may change (`Kernel(DataElement& e)`, launched
// with an object in managed memory): CUDA passes its address, so the kernel sees and changes the
// caller's object, and so does the emulator.
template <class Param>
using Bound = std::conditional_t<std::is_lvalue_reference_v<Param> &&
                                     !std::is_const_v<std::remove_reference_t<Param>>,
                                 Param, std::decay_t<Param>>;

// An argument read back from a launch's void* array: a reference parameter's entry holds the
// object's address, as for a GPU (where a reference is passed as a pointer).
template <class Param>
Bound<Param> bound_from(void* arg) {
  if constexpr (std::is_reference_v<Bound<Param>>)
    return **static_cast<std::remove_reference_t<Param>**>(arg);
  else
    return *static_cast<std::decay_t<Param>*>(arg);
}

// One emulated thread of `fn` on the arguments `bound`, and the same on its unhooked copy.
template <class... Params>
void bind_bodies(LaunchRequest& r, void (*fn)(Params...), std::tuple<Bound<Params>...> bound) {
  using Function = void (*)(Params...);
  if (const void* copy = unhooked_kernel(reinterpret_cast<const void*>(fn)))
    r.unhooked_body = [f = reinterpret_cast<Function>(const_cast<void*>(copy)), bound] {
      std::apply(f, bound);
    };
  r.body = [fn, bound = std::move(bound)] { std::apply(fn, bound); };
}

template <class... Params>
struct Launcher {
  const char* name;
  void (*function)(Params...);
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
  // The kernel's arguments convert to its parameter types, as in a real launch.
  void operator()(std::type_identity_t<Params>... args) const {
    LaunchRequest r;
    r.name = name;
    r.function = reinterpret_cast<const void*>(function);
    r.shape.grid = dims_of(grid);
    r.shape.block = dims_of(block);
    r.shape.dynamic_smem = smem;
    r.stream = stream;
    bind_bodies(r, function, std::tuple<Bound<Params>...>(args...));
    launch(r);
  }
};

// `k<<<grid, block, smem, stream>>>` as the rewritten source spells it.
template <class... Params>
Launcher<Params...> launcher(const char* name, void (*function)(Params...), dim3 grid, dim3 block,
                             size_t smem = 0, cudaStream_t stream = nullptr) {
  return {name, function, grid, block, smem, stream};
}

// The kernel's parameters read back from the void* array a cooperative or Ex launch passes.
template <class... Params, size_t... Indices>
void bind_from_array(LaunchRequest& r, void (*fn)(Params...), void** args,
                     std::index_sequence<Indices...>) {
  bind_bodies(r, fn, std::tuple<Bound<Params>...>(bound_from<Params>(args[Indices])...));
}

// cudaLaunchKernel and cudaLaunchCooperativeKernel as the rewritten source calls them: the
// kernel's arguments in a void* array.
template <class... Params>
LaunchRequest request_from_array(const char* name, void (*function)(Params...), dim3 grid,
                                 dim3 block, void** args, size_t smem, bool cooperative,
                                 cudaStream_t stream) {
  LaunchRequest r;
  r.name = name;
  r.function = reinterpret_cast<const void*>(function);
  r.shape.grid = dims_of(grid);
  r.shape.block = dims_of(block);
  r.shape.dynamic_smem = smem;
  r.shape.cooperative = cooperative;
  r.stream = stream;
  bind_from_array(r, function, args, std::index_sequence_for<Params...>{});
  return r;
}
template <class... Params>
cudaError_t launch_kernel(const char* name, void (*function)(Params...), dim3 grid, dim3 block,
                          void** args, size_t smem = 0, cudaStream_t stream = nullptr) {
  return launch(request_from_array(name, function, grid, block, args, smem, false, stream));
}
template <class... Params>
cudaError_t launch_cooperative(const char* name, void (*function)(Params...), dim3 grid, dim3 block,
                               void** args, size_t smem = 0, cudaStream_t stream = nullptr) {
  return launch(request_from_array(name, function, grid, block, args, smem, true, stream));
}

// `(void*)k` as the rewritten source spells it (device/lowering): the kernel's address, noted
// with its name and a way to bind it to arguments, for graph kernel nodes (graphs.hpp), which
// are given only the address. Any other operand of such a cast is returned as the cast would.
template <class... Params>
void* kernel_pointer(const char* name, void (*function)(Params...)) {
  register_kernel(reinterpret_cast<const void*>(function), name,
                  [name, function](dim3 grid, dim3 block, size_t smem, void** args) -> BoundLaunch {
                    return [r = request_from_array(name, function, grid, block, args, smem, false,
                                                   nullptr)] { return launch(r); };
                  });
  return reinterpret_cast<void*>(function);
}
template <class T>
void* kernel_pointer(const char*, T* pointer) {
  return (void*)pointer;  // NOLINT: the C cast the program wrote (it may drop const or volatile)
}
template <class T>
  requires(!std::is_pointer_v<T>)
void* kernel_pointer(const char*, T value) {
  return (void*)value;  // NOLINT: as above (an integer, nullptr)
}

template <class... Params, class... Args>
cudaError_t launch_ex(const char* name, const cudaLaunchConfig_t* config,
                      void (*function)(Params...), Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "cudaLaunchKernelEx: wrong number of arguments");
  LaunchRequest r;
  r.name = name;
  r.function = reinterpret_cast<const void*>(function);
  r.shape = shape_of(*config, cudaLaunchAttributeClusterDimension, cudaLaunchAttributeCooperative);
  bind_bodies(r, function, std::tuple<Bound<Params>...>(std::forward<Args>(args)...));
  r.stream = config->stream;
  return launch(r);
}

}  // namespace coop::byo

// The built-in variables with CUDA's types, as the lowering spells them (device/lowering): the
// indices are uint3, the sizes dim3, so that `dim3 d(blockDim)` and `uint3 t = threadIdx` read
// as they do under nvcc.
namespace coop::byo {
inline uint3 thread_idx() { return to_cuda<uint3>(emu::this_thread().thread_idx); }
inline uint3 block_idx() { return to_cuda<uint3>(emu::this_thread().block_idx); }
inline dim3 block_dim() { return to_cuda<dim3>(emu::this_thread().block_dim); }
inline dim3 grid_dim() { return to_cuda<dim3>(emu::this_thread().grid_dim); }
}  // namespace coop::byo

// The traced Cooperative Groups and atomics, under the names CUDA programs use.
namespace cooperative_groups = ::coop::cg;
// A namespace of its own, not an alias: libcu++ (which Thrust includes) declares its own names
// in `cuda`, and where both have one, qualified lookup finds libcu++'s before these.
namespace cuda {
using namespace ::coop::cuda;
}
using ::coop::__activemask;
using ::coop::__all_sync;
using ::coop::__any_sync;
using ::coop::__ballot_sync;
using ::coop::__match_all_sync;
using ::coop::__match_any_sync;
using ::coop::__reduce_add_sync;
using ::coop::__reduce_and_sync;
using ::coop::__reduce_max_sync;
using ::coop::__reduce_min_sync;
using ::coop::__reduce_or_sync;
using ::coop::__reduce_xor_sync;
using ::coop::__shfl_down_sync;
using ::coop::__shfl_sync;
using ::coop::__shfl_up_sync;
using ::coop::__shfl_xor_sync;
using ::coop::__syncthreads;
using ::coop::__syncthreads_and;
using ::coop::__syncthreads_count;
using ::coop::__syncthreads_or;
using ::coop::__syncwarp;
using ::coop::atomicAdd;
using ::coop::atomicAdd_block;
using ::coop::atomicAdd_system;
using ::coop::atomicAnd;
using ::coop::atomicAnd_block;
using ::coop::atomicAnd_system;
using ::coop::atomicCAS;
using ::coop::atomicCAS_block;
using ::coop::atomicCAS_system;
using ::coop::atomicDec;
using ::coop::atomicDec_block;
using ::coop::atomicDec_system;
using ::coop::atomicExch;
using ::coop::atomicExch_block;
using ::coop::atomicExch_system;
using ::coop::atomicInc;
using ::coop::atomicInc_block;
using ::coop::atomicInc_system;
using ::coop::atomicMax;
using ::coop::atomicMax_block;
using ::coop::atomicMax_system;
using ::coop::atomicMin;
using ::coop::atomicMin_block;
using ::coop::atomicMin_system;
using ::coop::atomicOr;
using ::coop::atomicOr_block;
using ::coop::atomicOr_system;
using ::coop::atomicSub;
using ::coop::atomicSub_block;
using ::coop::atomicSub_system;
using ::coop::atomicXor;
using ::coop::atomicXor_block;
using ::coop::atomicXor_system;

// nvcc's own macros, as its host pass defines them, now that CUDA's headers have been read as a
// host compiler reads them (with __CUDACC__ they would declare nvcc's device built-ins).
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
