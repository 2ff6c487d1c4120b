// The emulator's CUDA runtime for user programs (see runtime.hpp). One process runs one program:
// the state below is the program's device. What it records goes, when the program exits, to the
// trace file coopviz named in COOPVIZ_TRACE_OUT; problems the program cannot see through error
// codes (a launch refused, a deadlock, a fault in a kernel) are also written to stderr with the
// kernel's name, as a GPU's runtime would leave the program to check for itself.
// CUDA's names here are CUDA's functions, defined below (graphs.hpp).
#define COOP_BYO_KEEP_CUDA_NAMES 1
#include "device/byo/runtime.hpp"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "device/byo/device_launches.hpp"
#include "device/byo/kernel_resources.hpp"
#include "device/byo/launch_progress.hpp"
#include "device/byo/program_traces.hpp"
#include "device/byo/unhooked_copy.hpp"
#include "device/emu/fault_report.hpp"
#include "device/emu/memory_record.hpp"
#include "device/launch/executor.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::byo {
namespace {

// The program's one device: the emulator, imitating COOPVIZ_ARCH (default: an H100).
struct Device : ProgramTraces {
  cudaError_t last_error = cudaSuccess;
  std::map<const void*, size_t> allocations;    // base -> bytes (cudaMalloc and friends)
  std::map<const void*, int> max_dynamic_smem;  // cudaFuncAttributeMaxDynamicSharedMemorySize

  Device() : ProgramTraces(make_emu_executor(device_from_environment())) {
    // A kernel that faults: where, for coopviz to name the user's line (app/program).
    emu::report_faults_to(std::getenv("COOPVIZ_FAULT_OUT"));
    // A user's kernels are untrusted: an access outside its allocation stops the program at its
    // line. COOPVIZ_CHECK_MEMORY=1 (coopviz run --check-memory, exercise checks) also stops it
    // at a read of memory never written.
    exec().options().check_bounds = true;
    const char* check = std::getenv("COOPVIZ_CHECK_MEMORY");
    exec().options().check_initialisation = check && std::string(check) == "1";
    // A launch that runs long says how far it got, for coopviz's report if it stops the program.
    exec().options().progress = progress_reporter();
    // The compiler's report of the program's kernels, for the launch checks' residency limits.
    load_kernel_resources();
  }

  static DeviceProps device_from_environment() {
    DeviceProps props = default_emulated_device();
    if (const char* arch = std::getenv("COOPVIZ_ARCH"); arch && *arch)
      if (Result<DeviceProps> p = find_preset(arch)) props = *p;
    return props;
  }
};

Device& device() {
  static Device d;
  return d;
}

const DeviceProps& props() { return device().exec().device(); }

}  // namespace

cudaError_t fail(cudaError_t e) {
  if (launching_from_device()) return keep_device_thread_error(e);  // a kernel's own error
  device().last_error = e;
  return e;
}

const DeviceProps& emulated_device() { return props(); }

namespace {

// Writes `line` on stderr unless it was written before.
void say_once(const std::string& line) {
  static std::mutex said_lock;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> hold(said_lock);
  if (said.insert(line).second) std::fprintf(stderr, "coopviz: %s\n", line.c_str());
}

// A kernel's resources as the compiler reported them for the emulated architecture; a kernel
// without a report says so once.
KernelResources resources_of(const void* function) {
  std::string note;
  const KernelResources k = kernel_resources(function, props(), note);
  if (!note.empty()) say_once(note);
  return k;
}

}  // namespace

cudaError_t not_supported(const char* function) {
  say_once(std::string(function) + " is not supported on the emulator yet");
  return fail(cudaErrorNotSupported);
}

bool library_on_host(const char* library) {
  const std::string name = library;
  say_once(name + (name == "Thrust" ? " runs on the host on the emulator (its C++ system)"
                                    : " runs on the host on the emulator (CUB's kernels are GPU "
                                      "code)") +
           ", untraced; the program's own kernels are traced");
  return true;
}

// [SECTION] Launches

namespace {

// The last failed launch's words, until take_launch_problem() takes them.
std::string& launch_problem() {
  static std::string problem;
  return problem;
}

}  // namespace

namespace {

// One grid, traced (its children are device_launches.cpp's).
cudaError_t run_grid(const LaunchRequest& r) {
  ErasedLaunch e;
  e.name = r.name;
  e.gpu.function = r.function;  // which kernel a launch through a pointer reached (its name)
  e.emu_body = r.body;
  progress_kernel(r.name);
  device().label_next_launch(kernel_resource_params(r.function, props()));
  const Status s = device().launch(e, r.shape.config(), nullptr, nullptr, r.unhooked_body);
  progress_kernel(nullptr);
  note_untraced_seconds(device().untraced_seconds());
  if (s.ok()) return cudaSuccess;
  launch_problem() = "kernel " + std::string(r.name) + ": " + s.message();
  // An access outside its allocation, or a read of memory never written: the program stops
  // there, as a GPU's would at an illegal address, and coopviz says why (fault_report.hpp).
  if (const std::string m = emu::take_memory_fault(); !m.empty()) {
    emu::report_stop(m.c_str());
    std::fflush(stdout);
    std::exit(1);  // the trace is written on the way out, with the launch that stopped
  }
  if (take_device_assert()) return fail(cudaErrorAssert);  // sticky, as CUDA's
  if (cooperative_grid_too_large(s)) return fail(cudaErrorCooperativeLaunchTooLarge);
  return fail(cudaErrorLaunchFailure);
}

}  // namespace

cudaError_t launch(const LaunchRequest& r) {
  if (launching_from_device()) return launch_from_device(r);  // a kernel's launch
  if (r.stream && capturing(r.stream)) {  // a node of the graph being captured, run later
    LaunchRequest later = r;
    later.stream = nullptr;
    return capture_launch(r.stream, r.function, to_cuda<dim3>(r.shape.grid),
                          to_cuda<dim3>(r.shape.block), r.shape.dynamic_smem,
                          [later] { return launch(later); });
  }
  return launch_tree(r, run_grid);
}

const std::string& program_file_name() { return device().file_name(); }
void label_next_launch(std::map<std::string, std::string> params) {
  device().label_next_launch(std::move(params));
}
bool seeded_device_order() {
  const ExecOptions& o = device().exec().options();
  return o.seed != 0 || o.schedule != Schedule::Lockstep;
}
uint64_t device_order_seed() { return device().exec().options().seed; }

std::string take_launch_problem(const char* file) {
  std::string problem = std::exchange(launch_problem(), std::string());
  // The emulator names a kernel line "line N" (scheduler.cpp, fault_report.hpp): the file's.
  const std::string at = std::string(file ? file : "") + ":";
  for (size_t i = problem.find("line "); file && i != std::string::npos;
       i = problem.find("line ", i + at.size()))
    if (i + 5 < problem.size() && std::isdigit(static_cast<unsigned char>(problem[i + 5])))
      problem.replace(i, 5, at);
  return problem;
}

size_t traced_launches() {
  return device().launch_count();
}

std::string launch_races(size_t index, const char* file) {
  return device().races_of(index, file ? file : "");
}

cudaError_t function_attributes(const void* function, cudaFuncAttributes* a) {
  if (!a) return fail(cudaErrorInvalidValue);
  const KernelResources k = resources_of(function);
  *a = {};
  a->sharedSizeBytes = k.static_smem;
  a->localSizeBytes = k.local_bytes;
  a->maxThreadsPerBlock = k.max_threads_per_block;
  a->numRegs = k.regs_per_thread;
  a->ptxVersion = a->binaryVersion = props().cc_major * 10 + props().cc_minor;
  auto it = device().max_dynamic_smem.find(function);
  a->maxDynamicSharedSizeBytes = it != device().max_dynamic_smem.end()
                                     ? it->second
                                     : int(props().smem_per_block - k.static_smem);
  a->preferredShmemCarveout = -1;
  return cudaSuccess;
}

cudaError_t set_function_attribute(const void* function, cudaFuncAttribute attribute, int value) {
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || size_t(value) > max_smem_per_block(props())) return fail(cudaErrorInvalidValue);
    device().max_dynamic_smem[function] = value;
  }
  return cudaSuccess;
}

cudaError_t max_active_blocks(int* blocks, const void* function, int block_size,
                              size_t dynamic_smem) {
  if (!blocks || block_size <= 0) return fail(cudaErrorInvalidValue);
  const KernelResources k = resources_of(function);
  OccupancyInput in;
  in.block = {uint32_t(block_size), 1, 1};
  in.regs_per_thread = k.regs_per_thread;
  in.static_smem = k.static_smem;
  in.dynamic_smem = dynamic_smem;
  Result<OccupancyResult> r = compute_occupancy(props(), in);
  if (!r) return fail(cudaErrorInvalidValue);
  *blocks = r->active_blocks_per_sm;
  return cudaSuccess;
}

}  // namespace coop::byo

using coop::byo::device;
using coop::byo::fail;

// [SECTION] Kernel queries: CUDA's templates (cuda_runtime.h) pass the kernel as const void*.

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* function) {
  return coop::byo::function_attributes(function, attributes);
}
cudaError_t cudaFuncSetAttribute(const void* function, cudaFuncAttribute attribute, int value) {
  return coop::byo::set_function_attribute(function, attribute, value);
}
cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* function,
                                                          int block_size, size_t dynamic_smem) {
  return coop::byo::max_active_blocks(blocks, function, block_size, dynamic_smem);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks,
                                                                   const void* function,
                                                                   int block_size,
                                                                   size_t dynamic_smem, unsigned) {
  return coop::byo::max_active_blocks(blocks, function, block_size, dynamic_smem);
}

// [SECTION] Memory

// A call the lowering did not name (its variable unknown) has no place either: the toolkit's
// declarations take none.
cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  return coop::byo::allocate(ptr, bytes, nullptr, coop::ValueType::None, 1, "cudaMalloc",
                             std::source_location{});
}

namespace {
// Kernels allocate too (a device-side cudaMalloc), from blocks that may run on several OS threads.
std::mutex& allocation_lock() {
  static std::mutex m;
  return m;
}
}  // namespace

cudaError_t coop::byo::allocate(void** ptr, size_t bytes, const char* name, ValueType type,
                                uint32_t element_size, const char* api,
                                std::source_location where) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> hold(allocation_lock());
  Result<void*> p = device().exec().allocate(bytes);
  if (!p) return *ptr = nullptr, fail(cudaErrorMemoryAllocation);
  *ptr = *p;
  // Fresh device memory holds whatever was there: the recognisable garbage of fresh shared
  // memory (0xa5a5a5a5 is -1515870811 as an int), never a zero a program could rely on.
  std::memset(*p, 0xA5, bytes);
  device().allocations[*p] = bytes;
  device().name_allocation(*p, bytes, name, type, element_size);
  std::string made = api;
  if (where.line() != 0) {
    const std::string file = where.file_name();
    made += " at " + file.substr(file.find_last_of('/') + 1) + ":" + std::to_string(where.line());
  }
  emu::describe_global_memory(*p, name ? name : "", element_size, made);
  return cudaSuccess;
}

// Managed memory is filled by the driver's fresh, zeroed pages on first touch, not by the device's
// leftovers: programs read a flag they never set as false (graphMemoryNodes' validation flag), so
// it starts as zeros, written as far as --check-memory is concerned.
cudaError_t coop::byo::managed_fresh(void* p, size_t bytes, cudaError_t allocated) {
  if (allocated != cudaSuccess || !p) return allocated;
  std::memset(p, 0, bytes);
  coop::emu::host_wrote(p, bytes);
  return cudaSuccess;
}
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned) {
  const cudaError_t e = coop::byo::allocate(ptr, bytes, nullptr, coop::ValueType::None, 1,
                                            "cudaMallocManaged", std::source_location{});
  return coop::byo::managed_fresh(ptr ? *ptr : nullptr, bytes, e);
}
cudaError_t cudaMallocHost(void** ptr, size_t bytes) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  *ptr = std::malloc(bytes ? bytes : 1);
  return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }

cudaError_t cudaFree(void* ptr) {
  if (!ptr || coop::byo::graph_memory(ptr)) return cudaSuccess;
  std::lock_guard<std::mutex> hold(allocation_lock());
  auto& a = device().allocations;
  auto it = a.find(ptr);
  if (it == a.end()) return fail(cudaErrorInvalidValue);
  device().exec().forget_buffer(reinterpret_cast<uint64_t>(ptr));
  device().exec().release(ptr);
  a.erase(it);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  if ((!dst || !src) && bytes) return fail(cudaErrorInvalidValue);
  if (bytes) std::memmove(dst, src, bytes);
  coop::emu::host_copied(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  if (!dst && bytes) return fail(cudaErrorInvalidValue);
  if (bytes) std::memset(dst, value, bytes);
  coop::emu::host_wrote(dst, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t) {
  return cudaMemset(dst, value, bytes);
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset,
                               cudaMemcpyKind kind) {
  return cudaMemcpy(static_cast<char*>(const_cast<void*>(symbol)) + offset, src, bytes, kind);
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset,
                                 cudaMemcpyKind kind) {
  return cudaMemcpy(dst, static_cast<const char*>(symbol) + offset, bytes, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
// A __device__ variable's address is the host's: the emulator's device memory is the host's.
cudaError_t cudaGetSymbolAddress(void** address, const void* symbol) {
  if (!address || !symbol) return fail(cudaErrorInvalidValue);
  *address = const_cast<void*>(symbol);
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned, cudaStream_t) {
  return cudaSuccess;
}
// Stream-ordered allocation and memory pools: memory_pools.cpp.

cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  if (!ptr || !pitch) return fail(cudaErrorInvalidValue);
  constexpr size_t kAlign = 512;  // what cudaMallocPitch pads rows to on current GPUs
  *pitch = (std::max<size_t>(width, 1) + kAlign - 1) / kAlign * kAlign;
  return coop::byo::allocate(ptr, *pitch * height, nullptr, coop::ValueType::None, 1,
                             "cudaMallocPitch", std::source_location{});
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return fail(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (const cudaError_t e = cudaMemcpy(static_cast<char*>(dst) + row * dpitch,
                                         static_cast<const char*>(src) + row * spitch, width, kind);
        e != cudaSuccess)
      return e;
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch) return fail(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (const cudaError_t e = cudaMemset(static_cast<char*>(dst) + row * pitch, value, width);
        e != cudaSuccess)
      return e;
  return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t) {
  return cudaMemset2D(dst, pitch, value, width, height);
}
// 3D: a pitched volume is cudaMallocPitch's rows, height * depth of them, each slice `height`
// rows (cudaPitchedPtr::ysize).
cudaError_t cudaMalloc3D(cudaPitchedPtr* volume, cudaExtent extent) {
  if (!volume) return fail(cudaErrorInvalidValue);
  void* ptr = nullptr;
  size_t pitch = 0;
  if (const cudaError_t e = cudaMallocPitch(&ptr, &pitch, extent.width, extent.height * extent.depth);
      e != cudaSuccess)
    return e;
  *volume = make_cudaPitchedPtr(ptr, pitch, extent.width, extent.height);
  return cudaSuccess;
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (p->srcArray || p->dstArray) return coop::byo::not_supported("cudaMemcpy3D with a cudaArray");
  const cudaError_t e = coop::byo::copy_3d(*p);
  return e == cudaSuccess ? e : fail(e);
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t) { return cudaMemcpy3D(p); }
cudaError_t cudaMemset3D(cudaPitchedPtr volume, int value, cudaExtent extent) {
  for (size_t z = 0; z < extent.depth; ++z)
    if (const cudaError_t e = cudaMemset2D(static_cast<char*>(volume.ptr) + z * volume.pitch * volume.ysize,
                                           volume.pitch, value, extent.width, extent.height);
        e != cudaSuccess)
      return e;
  return cudaSuccess;
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr volume, int value, cudaExtent extent, cudaStream_t) {
  return cudaMemset3D(volume, value, extent);
}
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                           size_t bytes) {
  if (dst_device != 0 || src_device != 0) return fail(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                size_t bytes, cudaStream_t) {
  return cudaMemcpyPeer(dst, dst_device, src, src_device, bytes);
}
cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (!can) return fail(cudaErrorInvalidValue);
  if (device != 0 || peer != 0) return fail(cudaErrorInvalidDevice);
  *can = 0;
  return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned) {
  if (!device_ptr || !host_ptr) return fail(cudaErrorInvalidValue);
  *device_ptr = host_ptr;
  return cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* ptr) {
  if (!a) return fail(cudaErrorInvalidValue);
  *a = {};
  a->type = cudaMemoryTypeUnregistered;
  a->device = 0;
  // Inside an allocation of the device (cudaMalloc, cudaMallocManaged): device memory.
  const auto& allocations = coop::byo::device().allocations;
  auto it = allocations.upper_bound(ptr);
  if (it != allocations.begin()) {
    --it;
    const char* base = static_cast<const char*>(it->first);
    if (static_cast<const char*>(ptr) < base + std::max<size_t>(it->second, 1)) {
      a->type = cudaMemoryTypeDevice;
      a->devicePointer = const_cast<void*>(ptr);
    }
  }
  return cudaSuccess;
}
namespace {
unsigned& device_flags() {
  static unsigned flags = cudaDeviceScheduleAuto;
  return flags;
}
}  // namespace
cudaError_t cudaSetDeviceFlags(unsigned flags) {
  device_flags() = flags;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (!flags) return fail(cudaErrorInvalidValue);
  *flags = device_flags();
  return cudaSuccess;
}

// The emulated device's memory is the host's: what is free is what the imitated GPU has, less
// what the program holds.
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (!free_bytes || !total_bytes) return coop::byo::fail(cudaErrorInvalidValue);
  size_t held = 0;
  for (const auto& [base, bytes] : coop::byo::device().allocations) held += bytes;
  *total_bytes = coop::byo::kGlobalMemory;
  *free_bytes = *total_bytes > held ? *total_bytes - held : 0;
  return cudaSuccess;
}

// Limits: remembered and handed back, as a program may read what it set; the emulator's device
// printf, stacks and heap are the host's and need none.
namespace {
std::map<int, size_t>& limits() {
  static std::map<int, size_t> l = {
      {cudaLimitStackSize, 1024},
      {cudaLimitPrintfFifoSize, 1u << 20},
      {cudaLimitMallocHeapSize, 8u << 20},
      // Kept for programs that set it (CDP1's synchronisation depth, which CDP2 ignores).
      {cudaLimitDevRuntimeSyncDepth, 2},
      {cudaLimitDevRuntimePendingLaunchCount, coop::byo::kDefaultPendingLaunches}};
  return l;
}
}  // namespace
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (!limits().count(limit)) return coop::byo::fail(cudaErrorInvalidValue);
  limits()[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (!value || !limits().count(limit)) return coop::byo::fail(cudaErrorInvalidValue);
  *value = limits()[limit];
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  return cudaSuccess;
}

// [SECTION] Device, errors

// Every launch has completed by now; a failed one is reported here too, as on a GPU.
cudaError_t cudaDeviceSynchronize() {
  coop::byo::release_pools_to_threshold();
  return device().last_error;
}
cudaError_t cudaDeviceReset() {
  device().save();
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  if (coop::byo::launching_from_device()) return coop::byo::device_thread_error(true);
  const cudaError_t e = device().last_error;
  device().last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  if (coop::byo::launching_from_device()) return coop::byo::device_thread_error(false);
  return device().last_error;
}

namespace {
struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
// Every code of the toolkit's cudaError enum, worded as its runtime words it (generated by
// tools/cuda_stubs/cuda_errors_tool.cpp).
constexpr ErrorText kErrors[] = {
#include "cuda_errors.inc"
};
const ErrorText& error_text(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return t;
  static constexpr ErrorText kUnknown{cudaErrorUnknown, "cudaErrorUnknown", "unrecognized error code"};
  return kUnknown;
}
}  // namespace

const char* cudaGetErrorString(cudaError_t e) { return error_text(e).text; }
const char* cudaGetErrorName(cudaError_t e) { return error_text(e).name; }

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }
cudaError_t cudaGetDevice(int* d) {
  if (!d) return fail(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* v) {
  if (!v) return fail(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) { return cudaDriverGetVersion(v); }

// [SECTION] Streams and events: launches complete before they return, so both are in order.

struct CUstream_st {};
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
  bool recorded = false;
};

cudaError_t cudaStreamCreate(cudaStream_t* s) {
  if (!s) return fail(cudaErrorInvalidValue);
  *s = new CUstream_st;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  if (coop::byo::launching_from_device()) return coop::byo::create_device_stream(s, flags);
  return cudaStreamCreate(s);
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (coop::byo::launching_from_device()) return coop::byo::destroy_device_stream(s);
  delete s;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  coop::byo::release_pools_to_threshold();
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned, int) {
  return cudaStreamCreate(s);
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
  if (!e) return fail(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void* data) {
  if (!fn) return fail(cudaErrorInvalidValue);
  fn(data);
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t callback, void* data,
                                  unsigned) {
  if (!callback) return fail(cudaErrorInvalidValue);
  callback(s, cudaSuccess, data);
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) {
  if (!e) return fail(cudaErrorInvalidValue);
  *e = new CUevent_st;
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  if (!e) return fail(cudaErrorInvalidResourceHandle);
  e->at = std::chrono::steady_clock::now();
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  return e ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return fail(cudaErrorInvalidValue);
  if (!start->recorded || !end->recorded) return fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
