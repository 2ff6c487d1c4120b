// cub::DeviceReduce::Sum and the device-to-device copy, timed with cudaEvents.
#include "app/bench/reduce/gpu_reference.hpp"

#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include <climits>
#include <functional>
#include <string>

namespace coop::lessons::reduction_performance {
namespace {

Status cuda_status(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return {};
  cudaGetLastError();  // clear a sticky launch error so later calls report their own
  return Status::error(std::string(what) + " failed: " + cudaGetErrorString(e));
}

#define COOP_TRY(expr)                                                         \
  do {                                                                         \
    if (Status coop_s_ = cuda_status((expr), #expr); !coop_s_) return coop_s_; \
  } while (0)

// Owns a stream, two events and a scratch allocation for the length of one measurement.
struct Scope {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  void* scratch = nullptr;
  ~Scope() {
    if (scratch) cudaFree(scratch);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }
  Status open() {
    COOP_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    COOP_TRY(cudaEventCreate(&start));
    COOP_TRY(cudaEventCreate(&stop));
    return {};
  }
};

// Runs `call` plan.warmup times, then plan.runs batches of plan.repeat calls between events.
Result<std::vector<double>> time_calls(Scope& scope, const GpuTimingPlan& plan,
                                       const std::function<cudaError_t()>& call) {
  for (unsigned i = 0; i < plan.warmup; ++i) COOP_TRY(call());
  COOP_TRY(cudaStreamSynchronize(scope.stream));
  const unsigned repeat = plan.repeat == 0 ? 1 : plan.repeat;
  std::vector<double> ms_per_call;
  for (unsigned r = 0; r < plan.runs; ++r) {
    COOP_TRY(cudaEventRecord(scope.start, scope.stream));
    for (unsigned i = 0; i < repeat; ++i) COOP_TRY(call());
    COOP_TRY(cudaEventRecord(scope.stop, scope.stream));
    COOP_TRY(cudaEventSynchronize(scope.stop));
    float ms = 0;
    COOP_TRY(cudaEventElapsedTime(&ms, scope.start, scope.stop));
    ms_per_call.push_back(double(ms) / repeat);
  }
  return ms_per_call;
}

// cub::DeviceReduce::Sum with 32-bit item counts when n allows: that is how most programs call
// it, and CUB picks its 32-bit offset path for them.
cudaError_t cub_reduce(void* temp, size_t& bytes, const float* d_input, float* d_out, size_t n,
                       cudaStream_t stream) {
  if (n <= size_t(INT_MAX))
    return cub::DeviceReduce::Sum(temp, bytes, d_input, d_out, int(n), stream);
  return cub::DeviceReduce::Sum(temp, bytes, d_input, d_out, n, stream);
}

// One cub::DeviceReduce::Sum call with its temporary storage and result slot bound.
struct CubCall {
  const float* d_input = nullptr;
  void* d_temp = nullptr;
  float* d_out = nullptr;
  size_t n = 0, bytes = 0;
  cudaError_t operator()(cudaStream_t stream) {
    return cub_reduce(d_temp, bytes, d_input, d_out, n, stream);
  }
};
// Opens the scope and sizes CUB's temporary storage, with room for the result behind it.
Result<CubCall> prepare_cub(Scope& scope, const float* d_input, size_t n) {
  if (Status s = scope.open(); !s) return s;
  CubCall call;
  call.d_input = d_input;
  call.n = n;
  COOP_TRY(cub_reduce(nullptr, call.bytes, d_input, nullptr, n, scope.stream));
  call.bytes = (call.bytes + sizeof(float) - 1) / sizeof(float) * sizeof(float);
  COOP_TRY(cudaMalloc(&scope.scratch, call.bytes + sizeof(float)));
  call.d_temp = scope.scratch;
  call.d_out = reinterpret_cast<float*>(static_cast<char*>(scope.scratch) + call.bytes);
  return call;
}

}  // namespace

Result<float> cub_sum(const float* d_input, size_t n) {
  Scope scope;
  Result<CubCall> call = prepare_cub(scope, d_input, n);
  if (!call) return call.status();
  // Poisoned first, so a result that was never written cannot pass as a sum.
  COOP_TRY(cudaMemsetAsync(call->d_out, 0xff, sizeof(float), scope.stream));
  COOP_TRY((*call)(scope.stream));
  float sum = 0;
  COOP_TRY(cudaMemcpyAsync(&sum, call->d_out, sizeof sum, cudaMemcpyDeviceToHost, scope.stream));
  COOP_TRY(cudaStreamSynchronize(scope.stream));
  return sum;
}

Result<std::vector<double>> time_cub_sum(const float* d_input, size_t n,
                                         const GpuTimingPlan& plan) {
  Scope scope;
  Result<CubCall> call = prepare_cub(scope, d_input, n);
  if (!call) return call.status();
  return time_calls(scope, plan, [&] { return (*call)(scope.stream); });
}

Result<std::vector<double>> time_device_copy(void* d_dst, const void* d_src, size_t bytes,
                                             const GpuTimingPlan& plan) {
  Scope scope;
  if (Status s = scope.open(); !s) return s;
  return time_calls(scope, plan, [&] {
    return cudaMemcpyAsync(d_dst, d_src, bytes, cudaMemcpyDeviceToDevice, scope.stream);
  });
}

}  // namespace coop::lessons::reduction_performance
