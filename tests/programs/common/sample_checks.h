// Helpers in the style sample programs keep beside them (found with -I): a macro that checks
// every runtime call, a check after launches, and a device picker that asks the runtime for
// attributes one at a time.
#pragma once

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// Helper headers serve several APIs and test which ones were included by their header guards.
#ifdef __CUDA_RUNTIME_H__
inline const char* error_text(cudaError_t e) {
  return cudaGetErrorString(e);
}
#endif

template <typename Result>
void stop_on_error(Result result, const char* call, const char* file, int line) {
  if (result == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, error_text(result),
               cudaGetErrorName(result));
  std::exit(EXIT_FAILURE);
}
#define CHECK_CUDA(call) stop_on_error((call), #call, __FILE__, __LINE__)
#define CHECK_LAUNCH() CHECK_CUDA(cudaGetLastError())

// The device with the most multiprocessors that is not closed to programs.
inline int choose_device() {
  int count = 0, best = -1, best_sms = -1;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  for (int d = 0; d < count; ++d) {
    int mode = 0, sms = 0, major = 0, minor = 0, clock_khz = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
    CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
    CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, d));
    if (mode != cudaComputeModeProhibited && sms > best_sms && major * 10 + minor >= 70 &&
        clock_khz > 0)
      best = d, best_sms = sms;
  }
  if (best < 0) {
    std::fprintf(stderr, "no usable device\n");
    std::exit(EXIT_FAILURE);
  }
  CHECK_CUDA(cudaSetDevice(best));
  cudaDeviceProp p;
  CHECK_CUDA(cudaGetDeviceProperties(&p, best));
  std::printf("device %d: %s, compute capability %d.%d\n", best, p.name, p.major, p.minor);
  return best;
}
