// The GPU as an Executor. Every CUDA call is checked and turned into a Status naming the call.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "device/gpu/device_query.hpp"
#include "device/gpu/executor_kernels.hpp"
#include "device/launch/executor.hpp"

namespace coop {
namespace {

#define COOP_CUDA_STATUS(expr)                                                         \
  do {                                                                                 \
    const cudaError_t coop_err_ = (expr);                                              \
    if (coop_err_ != cudaSuccess)                                                      \
      return Status::error(std::string(#expr) + " failed: " + cudaGetErrorString(coop_err_) + \
                           " (" + __FILE__ + ":" + std::to_string(__LINE__) + ")");    \
  } while (0)

class GpuExecutor final : public Executor {
 public:
  GpuExecutor(int index, DeviceProps props) : index_(index), device_(std::move(props)) {}
  ~GpuExecutor() override {
    if (d_events_) cudaFree(d_events_);
    if (d_attempts_) cudaFree(d_attempts_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  Status init() {
    COOP_CUDA_STATUS(cudaSetDevice(index_));
    COOP_CUDA_STATUS(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    COOP_CUDA_STATUS(cudaMalloc(&d_attempts_, sizeof(unsigned long long)));
    timer_tick_ns_ = gpu::measure_timer_tick_ns(stream_);
    return {};
  }

  Backend backend() const override { return Backend::Gpu; }
  const DeviceProps& device() const override { return device_; }

  Result<void*> allocate(size_t bytes) override {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
    if (e != cudaSuccess)
      return Status::error("cudaMalloc(" + std::to_string(bytes) + " bytes) failed: " +
                           cudaGetErrorString(e));
    return p;
  }
  void release(void* p) override { cudaFree(p); }
  // Copies and fills go through the launch stream and finish before returning. The stream is
  // non-blocking, so work on the legacy default stream (plain cudaMemcpy/cudaMemset) would not be
  // ordered with the next launch, and a pageable upload or a memset may still be in flight when
  // those calls return.
  Status upload(void* dst, const void* src, size_t bytes) override {
    COOP_CUDA_STATUS(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_));
    COOP_CUDA_STATUS(cudaStreamSynchronize(stream_));
    return {};
  }
  Status download(void* dst, const void* src, size_t bytes) override {
    COOP_CUDA_STATUS(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
    COOP_CUDA_STATUS(cudaStreamSynchronize(stream_));
    return {};
  }
  Status fill(void* dst, int byte, size_t bytes) override {
    COOP_CUDA_STATUS(cudaMemsetAsync(dst, byte, bytes, stream_));
    COOP_CUDA_STATUS(cudaStreamSynchronize(stream_));
    return {};
  }

  KernelResources resources(const GpuKernelEntry& gpu, const char*) override {
    KernelResources r;
    cudaFuncAttributes a{};
    if (gpu.function && cudaFuncGetAttributes(&a, gpu.function) == cudaSuccess) {
      r.regs_per_thread = a.numRegs;
      r.static_smem = a.sharedSizeBytes;
      r.max_threads_per_block = a.maxThreadsPerBlock;
      r.local_bytes = a.localSizeBytes;
    }
    return r;
  }

 protected:
  Status launch_erased(const ErasedLaunch& launch, const LaunchConfig& config,
                       Trace& trace) override {
    fill_header(trace, launch, config);
    trace.header.clock_resolution_ns = timer_tick_ns_;
    trace.header.clock = "%globaltimer ns, ticking every " + std::to_string(timer_tick_ns_) +
                         " ns (measured); departures read once the barrier let the thread go";
    trace.events.clear();
    if (launch.gpu.function == nullptr)
      return Status::error(std::string("kernel ") + launch.name + " was not built for the GPU");
    if (Status s = validate_launch(config, device_, resources(launch.gpu, launch.name)); !s)
      return s;
    if (Status s = check_options(config); !s) return s;
    if (config.dynamic_smem > 48 * 1024)
      COOP_CUDA_STATUS(cudaFuncSetAttribute(launch.gpu.function,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            int(config.dynamic_smem)));
    if (Status s = prepare_sink(); !s) return s;
    TraceSink sink{};
    sink.events = static_cast<Event*>(d_events_);
    sink.attempts = static_cast<unsigned long long*>(d_attempts_);
    sink.capacity = options_.trace ? options_.trace_capacity : 0;
    sink.block_threads = uint32_t(config.block.count());
    sink.enabled = options_.trace ? 1u : 0u;
    if (const int e = launch.gpu.set_sink(sink, stream_); e != 0)
      return Status::error(std::string("setting the trace sink failed: ") +
                           cudaGetErrorString(cudaError_t(e)));
    if (sink.enabled) sinks_on_.insert(launch.gpu.set_sink);

    cudaEvent_t start{}, stop{};
    COOP_CUDA_STATUS(cudaEventCreate(&start));
    COOP_CUDA_STATUS(cudaEventCreate(&stop));
    COOP_CUDA_STATUS(cudaEventRecord(start, stream_));
    // Back-to-back repeats keep launch gaps out of timing runs (ExecOptions::repeat); a traced
    // launch runs once so its trace holds one launch's events.
    const unsigned repeat = options_.trace ? 1u : std::max(1u, options_.repeat);
    cudaError_t err = cudaSuccess;
    for (unsigned r = 0; r < repeat && err == cudaSuccess; ++r) err = launch_once(launch, config, stream_);
    double timeout = options_.timeout_seconds;
    if (const char* failure = gpu::test_failure_requested(); failure && err == cudaSuccess) {
      // Tests of the app's error reports only (COOPVIZ_TEST_GPU_FAILURE): fault, or spin 3 s past
      // a 2-second limit.
      if (failure[0] == 's') timeout = std::min(timeout, 2.0);
      err = cudaError_t(gpu::launch_test_failure(failure, timeout + 3, stream_));
    }
    if (err != cudaSuccess) {
      cudaGetLastError();
      return Status::error(std::string("launching ") + launch.name + " failed: " +
                           cudaGetErrorString(err));
    }
    COOP_CUDA_STATUS(cudaEventRecord(stop, stream_));
    if (Status s = wait_for(stop, launch.name, timeout); !s) return s;
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    trace.header.kernel_ms = ms / repeat;

    unsigned long long attempts = 0;
    COOP_CUDA_STATUS(cudaMemcpy(&attempts, d_attempts_, sizeof attempts, cudaMemcpyDeviceToHost));
    const uint64_t kept = std::min<uint64_t>(attempts, sink.capacity);
    trace.events.resize(kept);
    if (kept)
      COOP_CUDA_STATUS(cudaMemcpy(trace.events.data(), d_events_, kept * sizeof(Event),
                                  cudaMemcpyDeviceToHost));
    trace.header.capacity = sink.capacity;
    trace.header.attempts = options_.trace ? attempts : 0;
    finalize_trace(trace);
    return {};
  }

  // The plain kernel on the program's stream, not waited for: what nvcc's own launch does, so a
  // program's cudaEvent timing around it measures the kernel. Its unit's sink is switched off
  // once after a traced launch (a __constant__ the kernel reads), not per launch.
  Status launch_untraced(const ErasedLaunch& launch, const LaunchConfig& config,
                         void* stream) override {
    if (launch.gpu.function == nullptr)
      return Status::error(std::string("kernel ") + launch.name + " was not built for the GPU");
    if (sinks_on_.erase(launch.gpu.set_sink)) {
      TraceSink off{};
      off.attempts = static_cast<unsigned long long*>(d_attempts_);
      if (const int e = launch.gpu.set_sink(off, stream_); e != 0)
        return Status::error(std::string("switching the trace sink off failed: ") +
                             cudaGetErrorString(cudaError_t(e)));
      COOP_CUDA_STATUS(cudaStreamSynchronize(stream_));
    }
    if (config.dynamic_smem > 48 * 1024)
      COOP_CUDA_STATUS(cudaFuncSetAttribute(launch.gpu.function,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            int(config.dynamic_smem)));
    if (const cudaError_t e = launch_once(launch, config, static_cast<cudaStream_t>(stream));
        e != cudaSuccess)
      return Status::error(std::string("launching ") + launch.name + " failed: " +
                           cudaGetErrorString(e));
    return {};
  }

 private:
  // One launch of the kernel in the mode the configuration asks for, on `stream`.
  cudaError_t launch_once(const ErasedLaunch& launch, const LaunchConfig& config,
                          cudaStream_t stream) {
    const dim3 grid(config.grid.x, config.grid.y, config.grid.z);
    const dim3 block(config.block.x, config.block.y, config.block.z);
    switch (config.mode) {
      case LaunchMode::Normal:
        return cudaLaunchKernel(launch.gpu.function, grid, block, launch.gpu_args,
                                config.dynamic_smem, stream);
      case LaunchMode::Cooperative:
        return cudaLaunchCooperativeKernel(launch.gpu.function, grid, block, launch.gpu_args,
                                            config.dynamic_smem, stream);
      case LaunchMode::Cluster: {
        cudaLaunchConfig_t lc{};
        lc.gridDim = grid;
        lc.blockDim = block;
        lc.dynamicSmemBytes = config.dynamic_smem;
        lc.stream = stream;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = config.cluster.x;
        attr[0].val.clusterDim.y = config.cluster.y;
        attr[0].val.clusterDim.z = config.cluster.z;
        lc.attrs = attr;
        lc.numAttrs = 1;
        return cudaLaunchKernelExC(&lc, launch.gpu.function, launch.gpu_args);
      }
    }
    return cudaErrorInvalidValue;
  }

  Status prepare_sink() {
    const uint64_t want = options_.trace ? options_.trace_capacity : 0;
    if (want > capacity_ || d_events_ == nullptr) {
      if (d_events_) cudaFree(d_events_);
      d_events_ = nullptr;
      COOP_CUDA_STATUS(cudaMalloc(&d_events_, std::max<uint64_t>(want, 1) * sizeof(Event)));
      capacity_ = want;
    }
    COOP_CUDA_STATUS(cudaMemsetAsync(d_attempts_, 0, sizeof(unsigned long long), stream_));
    return {};
  }

  // Waits for the kernel with a deadline, so a runaway kernel is reported instead of freezing
  // the app. (The GPU itself cannot be stopped from here; the message says so.)
  Status wait_for(cudaEvent_t stop, const char* name, double timeout_seconds) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    for (;;) {
      const cudaError_t q = cudaEventQuery(stop);
      if (q == cudaSuccess) return {};
      if (q != cudaErrorNotReady)
        return Status::error(std::string(name) + " failed on the GPU: " + cudaGetErrorString(q) +
                             " (the CUDA context is now unusable; restart coopviz or use the "
                             "emulator)");
      if (std::chrono::steady_clock::now() > deadline)
        return Status::error(std::string(name) + " did not finish within " +
                             std::to_string(int(timeout_seconds)) +
                             " s on the GPU; it may be spinning forever");
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  int index_;
  DeviceProps device_;
  cudaStream_t stream_ = nullptr;
  void* d_events_ = nullptr;
  void* d_attempts_ = nullptr;
  uint64_t capacity_ = 0;
  uint32_t timer_tick_ns_ = 0;  // %globaltimer's measured tick, stated in every trace header
  // The units whose sink a traced launch left on (GpuKernelEntry::set_sink).
  std::set<int (*)(const TraceSink&, void*)> sinks_on_;
};

}  // namespace

Result<std::unique_ptr<Executor>> make_gpu_executor(int index) {
  Result<std::vector<DeviceProps>> gpus = query_gpus();
  if (!gpus) return gpus.status();
  if (index < 0 || size_t(index) >= gpus->size())
    return Status::error("GPU " + std::to_string(index) + " does not exist: " +
                         std::to_string(gpus->size()) + " CUDA device(s) found");
  auto exec = std::make_unique<GpuExecutor>(index, (*gpus)[size_t(index)]);
  if (Status s = exec->init(); !s) return s;
  return std::unique_ptr<Executor>(std::move(exec));
}

}  // namespace coop
