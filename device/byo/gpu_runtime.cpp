// The GPU side of a user's program: its launches, recorded by coop's GPU executor (see
// gpu_runtime.cuh). Memory, streams and events are CUDA's own.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>

#include "device/byo/gpu_launch.hpp"
#define COOP_BYO_KEEP_CUDA_NAMES 1
#include "device/byo/graphs.hpp"
#include "device/byo/program_traces.hpp"
#include "device/occupancy/resource_report.hpp"

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

// Set while this thread hands coopviz's executor a launch: whatever reaches CUDA's launch
// functions meanwhile (the program's kernel, coopviz's own timer kernel) is not a library's.
thread_local int t_own_launches = 0;
struct OwnLaunches {
  OwnLaunches() { ++t_own_launches; }
  ~OwnLaunches() { --t_own_launches; }
};

ProgramTraces& traces() {
  static ProgramTraces t = [] {
    OwnLaunches own;
    return ProgramTraces(gpu_or_exit());
  }();
  return t;
}

// "cub::DeviceReduceSingleTileKernel" for CUB's mangled kernel name: demangled without its
// parameters (demangled_name), then without return type, template arguments and the library's
// versioned inline namespaces (CUB_300000_SM_900).
std::string short_kernel_name(const char* mangled) {
  std::string name;
  int depth = 0;
  for (char c : demangled_name(mangled)) {
    if (c == '<') ++depth;
    if (depth == 0) name += c;
    if (c == '>' && depth > 0) --depth;
  }
  if (const size_t space = name.rfind(' '); space != std::string::npos) name.erase(0, space + 1);
  static const std::regex versioned(R"((^|::)[A-Z]+_[0-9][A-Z0-9_]*::)");
  return std::regex_replace(name, versioned, "$1");
}

// The mangled name of a kernel handle, from the driver (which CUDA's runtime has loaded; the
// runtime's cudaFuncGetName names host stubs); nullptr if it cannot say.
const char* handle_name(const void* kernel) {
  using GetName = int (*)(const char**, const void*);
  static const GetName get = [] {
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    return driver ? reinterpret_cast<GetName>(dlsym(driver, "cuKernelGetName")) : nullptr;
  }();
  const char* name = nullptr;
  return get && get(&name, kernel) == 0 ? name : nullptr;
}

}  // namespace

void count_library_launch(const void* function, dim3 grid, dim3 block, bool handle) {
  if (t_own_launches) return;
  // The kernel's name from CUDA; the runtime's error, if any, never left for the program to read
  // (a pending error of the program's own is left alone, and the name not asked for).
  std::string name = "a kernel";
  if (const char* mangled = handle ? handle_name(function) : nullptr) {
    name = short_kernel_name(mangled);
  } else if (!handle && cudaPeekAtLastError() == cudaSuccess) {
    if (cudaFuncGetName(&mangled, function) == cudaSuccess && mangled)
      name = short_kernel_name(mangled);
    else
      cudaGetLastError();
  }
  if (name.starts_with("coop::")) return;
  std::string shape = std::move(name);
  shape.append(" <<<").append(Dim3{grid.x, grid.y, grid.z}.str());
  shape.append(", ").append(Dim3{block.x, block.y, block.z}.str()).append(">>>");
  traces().count_library_launch(shape);
}

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
  OwnLaunches own;
  const Status s = traces().launch(e, l.shape.config(), l.stream, wait);
  if (waited != cudaSuccess) return waited;
  if (cooperative_grid_too_large(s)) return cudaErrorCooperativeLaunchTooLarge;
  return s.ok() ? cudaSuccess : cudaErrorLaunchFailure;
}

namespace {
thread_local cudaError_t t_launch_error = cudaSuccess;  // CUDA's last error is per host thread
}  // namespace

void keep_launch_error(cudaError_t error) {
  if (error != cudaSuccess) t_launch_error = error;
}

cudaError_t kept_launch_error(bool clear) {
  const cudaError_t kept = t_launch_error;
  if (clear) t_launch_error = cudaSuccess;
  return kept;
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

void note_device_launch_counter(const unsigned long long* counter) {
  traces().count_device_launches(
      [counter] { return uint64_t(*static_cast<const volatile unsigned long long*>(counter)); });
}

void name_allocation(void* base, size_t bytes, const char* name, ValueType type,
                     uint32_t element_size) {
  traces().name_allocation(base, bytes, name, type, element_size);
}

}  // namespace coop::byo
