// The CUDA runtime a user's own CUDA program sees when coopviz runs it on the emulator: the subset
// of cuda_runtime.h that teaching programs use, implemented over the emulator executor (memory is
// host memory, streams run in order, events read the host clock), and kernel launches that record
// one traced launch each. `coopviz run FILE.cu` compiles the program with the host compiler
// against this header (through the shim headers in byo/include/) and byo/runtime.cpp.
//
// Launch syntax is rewritten before compiling (device/emu/lowering.hpp): `k<<<g, b, s, st>>>(a)`
// becomes `::coop::byo::launcher("k", k, g, b, s, st)(a)`, and cudaLaunchCooperativeKernel and
// cudaLaunchKernelEx calls get the kernel's name and typed pointer the same way.
#pragma once

#define COOP_BYO_RUNTIME 1
// The guards CUDA's own headers define: helper headers test them to see which API they serve
// (#ifdef __CUDA_RUNTIME_H__ before the runtime's error strings).
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

#include "device/byo/launch_shape.hpp"
#include "device/launch/dims.hpp"
#include "device/trace/value.hpp"

// CUDA's dim3: constructible from one to three sizes, and from the built-in variables.
struct dim3 {  // NOLINT: CUDA's name, in CUDA's (global) namespace
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(const ::coop::Dim3& d) : x(d.x), y(d.y), z(d.z) {}
  constexpr operator ::coop::Dim3() const { return {x, y, z}; }
};

#include "device/byo/device_functions.hpp"
#include "device/emu/cg/warp_intrinsics.hpp"
#include "device/emu/cg_emu.hpp"
#include "device/emu/kernel_env.hpp"

// [SECTION] Types and constants (the values are CUDA's own)

enum cudaError_t {  // NOLINT
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;  // NOLINT

enum cudaMemcpyKind {  // NOLINT
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUstream_st;
using cudaStream_t = CUstream_st*;  // NOLINT
struct CUevent_st;
using cudaEvent_t = CUevent_st*;  // NOLINT

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

struct cudaDeviceProp {  // NOLINT: the fields teaching programs read
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  int maxBlocksPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  size_t reservedSharedMemPerBlock;
  int regsPerMultiprocessor;
  int cooperativeLaunch;
  int concurrentKernels;
  int managedMemory;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int computeMode;
};

enum cudaDeviceAttr {  // NOLINT
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrClusterLaunch = 120,
};

enum cudaComputeMode {  // NOLINT: the emulator is always in the default mode
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};

struct cudaFuncAttributes {  // NOLINT
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

enum cudaFuncAttribute {  // NOLINT
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
};

// cudaLaunchKernelEx's configuration: the cluster dimension and the cooperative flag are the
// attributes teaching programs set.
enum cudaLaunchAttributeID {  // NOLINT
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeClusterDimension = 4,
};
struct cudaLaunchAttributeValue {  // NOLINT
  struct {
    unsigned x, y, z;
  } clusterDim;
  int cooperative;
};
struct cudaLaunchAttribute {  // NOLINT
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(int)];
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {  // NOLINT
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes = 0;
  cudaStream_t stream = nullptr;
  cudaLaunchAttribute* attrs = nullptr;
  unsigned numAttrs = 0;
};

// [SECTION] Runtime calls (byo/runtime.cpp)

// The allocations take the caller's place, which fault reports name ("from cudaMalloc at x.cu:40").
cudaError_t cudaMalloc(void** ptr, size_t bytes,
                       std::source_location where = std::source_location::current());
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              std::source_location where = std::source_location::current());
cudaError_t cudaMallocHost(void** ptr, size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* dst, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t bytes,
                               size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t bytes, int device,
                                 cudaStream_t stream = nullptr);

enum cudaLimit {  // NOLINT
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
};
enum cudaFuncCache {  // NOLINT: a preference the emulator has no cache to apply to
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
// Pitched memory: rows of `width` bytes padded to CUDA's 512-byte pitch alignment.
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height,
                            std::source_location where = std::source_location::current());
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream = nullptr);
// One device: a peer copy is a copy, and no device is another's peer.
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                           size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer);
// Mapped host memory is the device's too: the emulator's device memory is the host's.
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
enum cudaMemoryType {  // NOLINT
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {  // NOLINT
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
template <class F>
cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
// Launches complete before they return, so a stream has nothing pending: queries say done, a
// wait on an event is already met, and a host function runs at once, after the work before it.
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
using cudaHostFn_t = void (*)(void*);  // NOLINT
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data);
using cudaStreamCallback_t = void (*)(cudaStream_t, cudaError_t, void*);  // NOLINT
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data,
                                  unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

namespace coop::byo {

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

// Managed memory is host memory here too.
template <class T>
cudaError_t malloc_managed_as(const char* name, T** ptr, size_t bytes, unsigned flags = 0,
                              std::source_location where = std::source_location::current()) {
  return malloc_as(name, ptr, bytes, flags, where, "cudaMallocManaged");
}

// [SECTION] Launches

// What a kernel's launch needs from the runtime: one erased call, its name, its configuration.
struct LaunchRequest {
  const char* name = "";
  const void* function = nullptr;  // the kernel's address, for attributes and occupancy queries
  std::function<void()> body;      // one emulated thread
  LaunchShape shape;
};
cudaError_t launch(const LaunchRequest& request);

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
cudaError_t potential_block_size(int* min_grid, int* block_size, const void* function,
                                 size_t dynamic_smem, int block_limit);

template <class... P>
struct Launcher {
  const char* name;
  void (*function)(P...);
  dim3 grid, block;
  size_t smem;
  // The kernel's arguments convert to its parameter types, as in a real launch.
  void operator()(std::type_identity_t<P>... args) const {
    LaunchRequest r;
    r.name = name;
    r.function = reinterpret_cast<const void*>(function);
    r.shape.grid = grid;
    r.shape.block = block;
    r.shape.dynamic_smem = smem;
    auto fn = function;
    std::tuple<std::decay_t<P>...> bound(args...);
    r.body = [fn, bound] { std::apply(fn, bound); };
    launch(r);
  }
};

// `k<<<grid, block, smem, stream>>>` as the rewritten source spells it.
template <class... P>
Launcher<P...> launcher(const char* name, void (*function)(P...), dim3 grid, dim3 block,
                        size_t smem = 0, cudaStream_t = nullptr) {
  return {name, function, grid, block, smem};
}

// The kernel's parameters read back from the void* array a cooperative or Ex launch passes.
template <class... P, size_t... I>
std::function<void()> body_from_array(void (*fn)(P...), void** args, std::index_sequence<I...>) {
  std::tuple<std::decay_t<P>...> bound(
      *static_cast<std::decay_t<P>*>(args[I])...);
  return [fn, bound] { std::apply(fn, bound); };
}

// cudaLaunchKernel and cudaLaunchCooperativeKernel as the rewritten source calls them: the
// kernel's arguments in a void* array.
template <class... P>
cudaError_t launch_from_array(const char* name, void (*function)(P...), dim3 grid, dim3 block,
                              void** args, size_t smem, bool cooperative) {
  LaunchRequest r;
  r.name = name;
  r.function = reinterpret_cast<const void*>(function);
  r.shape.grid = grid;
  r.shape.block = block;
  r.shape.dynamic_smem = smem;
  r.shape.cooperative = cooperative;
  r.body = body_from_array(function, args, std::index_sequence_for<P...>{});
  return launch(r);
}
template <class... P>
cudaError_t launch_kernel(const char* name, void (*function)(P...), dim3 grid, dim3 block,
                          void** args, size_t smem = 0, cudaStream_t = nullptr) {
  return launch_from_array(name, function, grid, block, args, smem, false);
}
template <class... P>
cudaError_t launch_cooperative(const char* name, void (*function)(P...), dim3 grid, dim3 block,
                               void** args, size_t smem = 0, cudaStream_t = nullptr) {
  return launch_from_array(name, function, grid, block, args, smem, true);
}

template <class... P, class... A>
cudaError_t launch_ex(const char* name, const cudaLaunchConfig_t* config, void (*function)(P...),
                      A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "cudaLaunchKernelEx: wrong number of arguments");
  LaunchRequest r;
  r.name = name;
  r.function = reinterpret_cast<const void*>(function);
  r.shape = shape_of(*config, cudaLaunchAttributeClusterDimension, cudaLaunchAttributeCooperative);
  std::tuple<std::decay_t<P>...> bound(std::forward<A>(args)...);
  auto fn = function;
  r.body = [fn, bound] { std::apply(fn, bound); };
  return launch(r);
}

}  // namespace coop::byo

// [SECTION] Kernel queries, typed by the kernel (CUDA's templates take any function pointer)

template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, F* function) {
  return ::coop::byo::function_attributes(reinterpret_cast<const void*>(function), attributes);
}
template <class F>
cudaError_t cudaFuncSetAttribute(F* function, cudaFuncAttribute attribute, int value) {
  return ::coop::byo::set_function_attribute(reinterpret_cast<const void*>(function), attribute,
                                             value);
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* function,
                                                          int block_size, size_t dynamic_smem) {
  return ::coop::byo::max_active_blocks(blocks, reinterpret_cast<const void*>(function),
                                        block_size, dynamic_smem);
}
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, F* function,
                                               size_t dynamic_smem = 0, int block_limit = 0) {
  return ::coop::byo::potential_block_size(min_grid, block_size,
                                           reinterpret_cast<const void*>(function), dynamic_smem,
                                           block_limit);
}

// The typed forms of the allocations (CUDA's C++ overloads take any T**).
template <class T>
cudaError_t cudaMalloc(T** ptr, size_t bytes,
                       std::source_location where = std::source_location::current()) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes, where);
}
template <class T>
cudaError_t cudaMallocPitch(T** ptr, size_t* pitch, size_t width, size_t height,
                            std::source_location where = std::source_location::current()) {
  return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height, where);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device_ptr, void* host_ptr, unsigned flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device_ptr), host_ptr, flags);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              std::source_location where = std::source_location::current()) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags, where);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
template <class T>
cudaError_t cudaHostAlloc(T** ptr, size_t bytes, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}

// cudaMemcpyToSymbol(symbol, ...) names the variable itself, as CUDA's C++ overloads do.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol(static_cast<const void*>(&symbol), src, bytes, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), bytes, offset, kind);
}

// The traced Cooperative Groups and atomics, under the names CUDA programs use.
namespace cooperative_groups = ::coop::cg;
namespace cuda = ::coop::cuda;
using ::coop::__activemask;
using ::coop::__all_sync;
using ::coop::__any_sync;
using ::coop::__ballot_sync;
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

#define __constant__
#define __managed__
