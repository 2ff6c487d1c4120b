// The emulator's CUDA runtime for user programs (see runtime.hpp). One process runs one program:
// the state below is the program's device. What it records goes, when the program exits, to the
// trace file coopviz named in COOPVIZ_TRACE_OUT; problems the program cannot see through error
// codes (a launch refused, a deadlock, a fault in a kernel) are also written to stderr with the
// kernel's name, as a GPU's runtime would leave the program to check for itself.
#include "device/byo/runtime.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "device/byo/program_traces.hpp"
#include "device/emu/fault_report.hpp"
#include "device/emu/memory_record.hpp"
#include "device/launch/executor.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::byo {
namespace {

// What cudaGetDeviceProperties and cudaMemGetInfo say the device holds (an H100's 80 GB); the
// program's buffers are the host's memory.
constexpr size_t kGlobalMemory = size_t(80) << 30;

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

cudaError_t fail(cudaError_t e) {
  device().last_error = e;
  return e;
}

const DeviceProps& props() { return device().exec().device(); }

// The resources the emulator assumes for a user kernel: the compiler's report is not known here.
KernelResources resources_of(const void*) { return KernelResources{}; }

}  // namespace

// [SECTION] Launches

cudaError_t launch(const LaunchRequest& r) {
  ErasedLaunch e;
  e.name = r.name;
  e.emu_body = r.body;
  const Status s = device().launch(e, r.shape.config());
  if (s.ok()) return cudaSuccess;
  // An access outside its allocation, or a read of memory never written: the program stops
  // there, as a GPU's would at an illegal address, and coopviz says why (fault_report.hpp).
  if (const std::string m = emu::take_memory_fault(); !m.empty()) {
    emu::report_stop(m.c_str());
    std::fflush(stdout);
    std::exit(1);  // the trace is written on the way out, with the launch that stopped
  }
  const std::string& m = s.message();
  if (m.find("cooperative") != std::string::npos && m.find("exceeds") != std::string::npos)
    return fail(cudaErrorCooperativeLaunchTooLarge);
  return fail(cudaErrorLaunchFailure);
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

cudaError_t potential_block_size(int* min_grid, int* block_size, const void* function,
                                 size_t dynamic_smem, int block_limit) {
  if (!min_grid || !block_size) return fail(cudaErrorInvalidValue);
  const KernelResources k = resources_of(function);
  Result<PotentialBlockSize> r = max_potential_block_size(props(), k.regs_per_thread,
                                                          k.static_smem, dynamic_smem, block_limit);
  if (!r) return fail(cudaErrorInvalidValue);
  *min_grid = r->min_grid_size;
  *block_size = r->block_size;
  return cudaSuccess;
}

}  // namespace coop::byo

using coop::byo::device;
using coop::byo::fail;

// [SECTION] Memory

cudaError_t cudaMalloc(void** ptr, size_t bytes, std::source_location where) {
  return coop::byo::allocate(ptr, bytes, nullptr, coop::ValueType::None, 1, "cudaMalloc", where);
}

cudaError_t coop::byo::allocate(void** ptr, size_t bytes, const char* name, ValueType type,
                                uint32_t element_size, const char* api,
                                std::source_location where) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  Result<void*> p = device().exec().allocate(bytes);
  if (!p) return *ptr = nullptr, fail(cudaErrorMemoryAllocation);
  *ptr = *p;
  // Fresh device memory holds whatever was there: the recognisable garbage of fresh shared
  // memory (0xa5a5a5a5 is -1515870811 as an int), never a zero a program could rely on.
  std::memset(*p, 0xA5, bytes);
  device().allocations[*p] = bytes;
  device().name_allocation(*p, bytes, name, type, element_size);
  std::string file = where.file_name();
  file = file.substr(file.find_last_of('/') + 1);
  emu::describe_global_memory(*p, name ? name : "", element_size,
                              std::string(api) + " at " + file + ":" + std::to_string(where.line()));
  return cudaSuccess;
}

cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned, std::source_location where) {
  return coop::byo::allocate(ptr, bytes, nullptr, coop::ValueType::None, 1, "cudaMallocManaged",
                             where);
}
cudaError_t cudaMallocHost(void** ptr, size_t bytes) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  *ptr = std::malloc(bytes ? bytes : 1);
  return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
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
cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t) { return cudaSuccess; }

cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height,
                            std::source_location where) {
  if (!ptr || !pitch) return fail(cudaErrorInvalidValue);
  constexpr size_t kAlign = 512;  // what cudaMallocPitch pads rows to on current GPUs
  *pitch = (std::max<size_t>(width, 1) + kAlign - 1) / kAlign * kAlign;
  return coop::byo::allocate(ptr, *pitch * height, nullptr, coop::ValueType::None, 1,
                             "cudaMallocPitch", where);
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
  static std::map<int, size_t> l = {{cudaLimitStackSize, 1024},
                                    {cudaLimitPrintfFifoSize, 1u << 20},
                                    {cudaLimitMallocHeapSize, 8u << 20}};
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
cudaError_t cudaDeviceSynchronize() { return device().last_error; }
cudaError_t cudaDeviceReset() {
  device().save();
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  const cudaError_t e = device().last_error;
  device().last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return device().last_error; }

namespace {
struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
const ErrorText& error_text(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return t;
  return kErrors[std::size(kErrors) - 1];
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

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (d != 0) return fail(cudaErrorInvalidDevice);
  const coop::DeviceProps& x = coop::byo::device().exec().device();
  *p = {};
  std::snprintf(p->name, sizeof p->name, "%s", x.name.c_str());
  p->totalGlobalMem = coop::byo::kGlobalMemory;
  p->sharedMemPerBlock = x.smem_per_block;
  p->regsPerBlock = x.regs_per_block;
  p->warpSize = x.warp_size;
  p->maxThreadsPerBlock = x.max_threads_per_block;
  p->maxThreadsDim[0] = int(x.max_block_dims.x);
  p->maxThreadsDim[1] = int(x.max_block_dims.y);
  p->maxThreadsDim[2] = int(x.max_block_dims.z);
  p->maxGridSize[0] = int(x.max_grid_dims.x);
  p->maxGridSize[1] = int(x.max_grid_dims.y);
  p->maxGridSize[2] = int(x.max_grid_dims.z);
  p->clockRate = x.clock_mhz * 1000;
  p->totalConstMem = 64 * 1024;
  p->major = x.cc_major;
  p->minor = x.cc_minor;
  p->multiProcessorCount = x.sm_count;
  p->maxThreadsPerMultiProcessor = x.max_threads_per_sm;
  p->maxBlocksPerMultiProcessor = x.max_blocks_per_sm;
  p->sharedMemPerMultiprocessor = x.smem_per_sm;
  p->sharedMemPerBlockOptin = x.smem_per_block_optin;
  p->reservedSharedMemPerBlock = x.reserved_smem_per_block;
  p->regsPerMultiprocessor = x.regs_per_sm;
  p->cooperativeLaunch = x.cooperative_launch;
  p->concurrentKernels = 1;
  p->managedMemory = 1;
  p->unifiedAddressing = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int d) {
  if (!value) return fail(cudaErrorInvalidValue);
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, d); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeMode:
      *value = cudaComputeModeDefault;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = int(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = int(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrClusterLaunch:
      *value = coop::byo::device().exec().device().cluster_launch;
      break;
    default:
      return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* v) {
  if (!v) return fail(cudaErrorInvalidValue);
  *v = 13000;
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
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) { return cudaStreamCreate(s); }
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  delete s;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
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
