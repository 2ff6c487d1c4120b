// The emulator as an Executor: host memory stands in for device memory, and launches run through
// emulate() after the same validation the GPU path does.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>

#include "device/emu/device_arena.hpp"
#include "device/emu/emulator.hpp"
#include "device/emu/memory_record.hpp"
#include "device/launch/executor.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/trace/memory_access.hpp"

namespace coop {
namespace {

class EmuExecutor final : public Executor {
 public:
  explicit EmuExecutor(const DeviceProps& device) : device_(device) {}
  Backend backend() const override { return Backend::Emu; }
  const DeviceProps& device() const override { return device_; }

  Result<void*> allocate(size_t bytes) override {
    // In the device arena (device_arena.hpp), aligned and rounded like cudaMalloc, between guard
    // zones (memory_record.hpp); zeroed so runs are reproducible.
    constexpr size_t guard = emu::kGlobalGuardBytes;
    static_assert(guard % emu::kDeviceAlignment == 0);
    const size_t rounded = emu::device_rounded(bytes);
    auto* p = static_cast<char*>(emu::arena_allocate(bytes, guard));
    if (p == nullptr)
      return Status::error("out of device memory allocating " + std::to_string(bytes) +
                           " bytes (the emulator's device memory is the host's)");
    std::memset(p, 0, bytes);
    // Kernels' accesses to it are recorded and checked.
    emu::register_global_memory(p, bytes, guard, rounded - bytes + guard,
                                options_.check_initialisation);
    return static_cast<void*>(p);
  }
  void release(void* p) override {
    // The registry keeps each allocation's size, which the arena needs back.
    if (const std::optional<size_t> bytes = emu::forget_global_memory(p))
      emu::arena_release(p, *bytes, emu::kGlobalGuardBytes);
  }
  Status upload(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    emu::host_copied(dst, src, bytes);  // written, for check_initialisation
    return {};
  }
  Status download(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return {};
  }
  Status fill(void* dst, int byte, size_t bytes) override {
    std::memset(dst, byte, bytes);
    emu::host_wrote(dst, bytes);
    return {};
  }
  // The compiler's report for this kernel on the emulated architecture, compiled in at build time
  // (device/occupancy/kernel_resources.hpp); defaults for kernels without one.
  KernelResources resources(const GpuKernelEntry& gpu, const char* name) override {
    const int arch = device_.cc_major * 10 + device_.cc_minor;
    if (const CompiledKernelResources* row = find_compiled_resources(gpu.function, name, arch))
      return to_kernel_resources(*row, device_);
    return {};
  }

 protected:
  Status launch_erased(const ErasedLaunch& launch, const LaunchConfig& config,
                       Trace& trace) override {
    fill_header(trace, launch, config);
    trace.events.clear();
    if (!launch.emu_body)
      return Status::error(std::string("kernel ") + launch.name +
                           " was not built for the emulator");
    if (Status s = validate_launch(config, device_, resources(launch.gpu, launch.name)); !s)
      return s;
    if (Status s = check_options(config); !s) return s;
    // The event array is reserved up front (as on the GPU); refuse capacities the host cannot hold.
    const double need_gib = double(options_.trace_capacity) * sizeof(Event) / double(1 << 30);
    const double ram_gib = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)) /
                           double(1 << 30);
    if (options_.trace && need_gib > ram_gib / 2)
      return Status::error("a trace capacity of " + std::to_string(options_.trace_capacity) +
                           " events needs " + std::to_string(int(need_gib + 0.5)) +
                           " GiB, more than half of this machine's " +
                           std::to_string(int(ram_gib + 0.5)) + " GiB: lower --trace-capacity");
    emu::EmuLaunch request;
    request.config = config;
    request.device = device_;
    request.body = launch.emu_body;
    request.capacity = options_.trace_capacity;
    request.trace = options_.trace;
    request.record_memory = options_.record_memory;
    request.check_bounds = options_.check_bounds;
    request.check_initialisation = options_.check_initialisation;
    emu::EmuOptions o;
    o.schedule = options_.schedule;
    o.seed = options_.seed;
    o.jobs = options_.jobs;
    o.window = options_.window;
    o.watchdog_seconds = options_.timeout_seconds;
    o.progress = options_.progress;
    Status status = emu::emulate(request, o, trace);
    finalize_trace(trace);
    return status;
  }

 private:
  DeviceProps device_;
};

}  // namespace

std::unique_ptr<Executor> make_emu_executor(const DeviceProps& device) {
  return std::make_unique<EmuExecutor>(device);
}

}  // namespace coop
