// A backend that runs kernels: the GPU (CUDA runtime) or the CPU emulator. Lessons are written
// against this interface only, so the same lesson code drives both. Every launch passes the
// checks of launch_checks.hpp first, on either backend.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/kernel.hpp"
#include "device/launch/launch_checks.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/result.hpp"
#include "device/launch/schedule.hpp"
#include "device/trace/trace.hpp"
#include "device/trace/value.hpp"

namespace coop {

struct ExecOptions {
  uint64_t trace_capacity = 1u << 22;  // event slots per launch
  bool trace = true;                   // false: untraced (timing runs)
  // Emulator: also record every shared/global load and store, not only traced(...) ones. Off by
  // default: it multiplies a trace's events, which every view then walks.
  bool record_memory = false;
  // Emulator: every shared and global access of a kernel is checked against the allocation it
  // falls in, and one into the guard zone around an allocation stops the launch at its line
  // (user programs: their code is untrusted). With check_initialisation a read of bytes nothing
  // wrote stops it too; that keeps a shadow byte per byte of every allocation made after it is set.
  bool check_bounds = false;
  bool check_initialisation = false;
  Schedule schedule = Schedule::Lockstep;  // emulator: how threads interleave
  uint64_t seed = 0;                   // emulator schedule's seed; lockstep 0 is the default order
  unsigned jobs = 1;                   // emulator OS threads for normal launches
  unsigned window = 0;                 // emulator blocks interleaved per OS thread (0: automatic)
  double timeout_seconds = 60;         // GPU: give up waiting; emulator: watchdog
  // Emulator: told from another OS thread how far a long launch got (EmuOptions::progress).
  std::function<void(const std::string&)> progress;
  // GPU timing runs: launches the kernel this many times back to back between the two timing
  // events, so launch gaps stay out of the measurement; kernel_ms is then the time per launch.
  // Ignored while tracing, and by the emulator, which launches once.
  unsigned repeat = 1;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual Backend backend() const = 0;
  virtual const DeviceProps& device() const = 0;
  ExecOptions& options() { return options_; }

  // Memory the kernels see: device memory on a GPU, host memory on the emulator.
  virtual Result<void*> allocate(size_t bytes) = 0;
  virtual void release(void* p) = 0;
  virtual Status upload(void* dst, const void* src, size_t bytes) = 0;
  virtual Status download(void* dst, const void* src, size_t bytes) = 0;
  virtual Status fill(void* dst, int byte, size_t bytes) = 0;

  // Names an allocation so traces can show addresses as name[index].
  void name_buffer(const BufferInfo& info);
  void forget_buffer(uint64_t base);
  const std::vector<BufferInfo>& buffers() const { return buffers_; }

  // Launches `kernel` with `args` (device pointers and values, as in CUDA). The trace receives
  // the events and the header fields the backend knows.
  template <class... Params, class... Args>
  Status launch(const Kernel<Params...>& kernel, const LaunchConfig& config, Trace& trace,
                Args&&... args) {
    static_assert(sizeof...(Params) == sizeof...(Args), "wrong number of kernel arguments");
    std::tuple<Params...> bound(std::forward<Args>(args)...);
    ErasedLaunch launch;
    launch.name = kernel.name;
    launch.gpu = kernel.gpu;
    void* arg_ptrs[sizeof...(Params) + 1] = {};
    std::apply([&](auto&... a) {
      int i = 0;
      ((arg_ptrs[i++] = static_cast<void*>(&a)), ...);
    }, bound);
    launch.gpu_args = arg_ptrs;
    if (kernel.emu != nullptr) {
      auto* fn = kernel.emu;
      launch.emu_body = [fn, bound] { std::apply(fn, bound); };
    }
    return launch_erased(launch, config, trace);
  }

  // Launches a call already erased by its caller: a user program's own launch, whose argument
  // types only the program knows.
  Status launch_call(const ErasedLaunch& launch, const LaunchConfig& config, Trace& trace) {
    return launch_erased(launch, config, trace);
  }
  // Runs a launch that records nothing, as fast as the backend can: the emulator spreads an
  // unseeded lockstep launch's blocks over every core; the GPU (which overrides this) queues the
  // plain kernel on `stream` (a cudaStream_t; null: the default stream) and returns without
  // waiting, as CUDA's own launch does. A user program's repeats of a launch already traced run so.
  virtual Status launch_untraced(const ErasedLaunch& launch, const LaunchConfig& config,
                                 void* stream);
  // Compiler-reported resources of a kernel (registers, static shared memory).
  virtual KernelResources resources(const GpuKernelEntry& gpu, const char* name) = 0;

 protected:
  virtual Status launch_erased(const ErasedLaunch& launch, const LaunchConfig& config,
                               Trace& trace) = 0;
  void fill_header(Trace& trace, const ErasedLaunch& launch, const LaunchConfig& config) const;
  // Checks shared by both backends that depend on the options (trace size limits).
  Status check_options(const LaunchConfig& config) const;

  ExecOptions options_;
  std::vector<BufferInfo> buffers_;
};

// Typed device memory owned for the length of a lesson run.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  static Result<DeviceArray> create(Executor& exec, size_t count, std::string name) {
    Result<void*> p = exec.allocate(count * sizeof(T) + (count == 0));
    if (!p) return p.status();
    DeviceArray a;
    a.exec_ = &exec;
    a.data_ = static_cast<T*>(*p);
    a.count_ = count;
    BufferInfo info;
    info.name = std::move(name);
    info.base = reinterpret_cast<uint64_t>(a.data_);
    info.bytes = count * sizeof(T);
    info.type = value_type_of<T>();
    info.element_size = sizeof(T);
    exec.name_buffer(info);
    return a;
  }
  DeviceArray(DeviceArray&& o) noexcept { *this = std::move(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(exec_, o.exec_);
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    return *this;
  }
  ~DeviceArray() {
    if (exec_ && data_) {
      exec_->forget_buffer(reinterpret_cast<uint64_t>(data_));
      exec_->release(data_);
    }
  }
  T* get() const { return data_; }
  size_t size() const { return count_; }
  Status upload(const std::vector<T>& host) {
    return exec_->upload(data_, host.data(), std::min(host.size(), count_) * sizeof(T));
  }
  Result<std::vector<T>> download() const {
    std::vector<T> host(count_);
    if (Status s = exec_->download(host.data(), data_, count_ * sizeof(T)); !s) return s;
    return host;
  }
  Status zero() { return exec_->fill(data_, 0, count_ * sizeof(T)); }

 private:
  Executor* exec_ = nullptr;
  T* data_ = nullptr;
  size_t count_ = 0;
};

// The GPU backend, or the reason there is none ("No CUDA device", "driver too old", ...).
Result<std::unique_ptr<Executor>> make_gpu_executor(int device_index = 0);

// The emulator imitating `device`.
std::unique_ptr<Executor> make_emu_executor(const DeviceProps& device);

}  // namespace coop
