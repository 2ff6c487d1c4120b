// Kernels the GPU executor runs itself, outside any lesson: one that measures how often
// %globaltimer ticks (trace headers state it), and two that exist only so tests can make a run
// fail on purpose: one faults, one spins past the executor's time limit.
#include "device/gpu/executor_kernels.hpp"

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "device/gpu/recorder.cuh"

namespace coop::gpu {
namespace {

// The smallest step between differing successive reads, over many reads: the timer's tick.
__global__ void timer_tick(unsigned long long* tick) {
  unsigned long long prev = global_timer(), best = ~0ull;
  for (int i = 0, changes = 0; i < (1 << 16) && changes < 256; ++i) {
    const unsigned long long t = global_timer();
    if (t == prev) continue;
    if (t > prev && t - prev < best) best = t - prev;
    prev = t;
    ++changes;
  }
  *tick = best;
}

__global__ void test_fault(int* nowhere) {
  nowhere[threadIdx.x] = 1;
}  // an illegal address

__global__ void test_spin(unsigned long long ns) {
  const unsigned long long start = global_timer();
  while (global_timer() - start < ns) {
  }
}

}  // namespace

uint32_t measure_timer_tick_ns(void* stream) {
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  unsigned long long* d_tick = nullptr;
  unsigned long long tick = 0;
  if (cudaMalloc(&d_tick, sizeof tick) != cudaSuccess) return 0;
  timer_tick<<<1, 1, 0, s>>>(d_tick);
  const bool ok =
      cudaMemcpyAsync(&tick, d_tick, sizeof tick, cudaMemcpyDeviceToHost, s) == cudaSuccess &&
      cudaStreamSynchronize(s) == cudaSuccess;
  cudaFree(d_tick);
  return ok && tick < 1000000 ? uint32_t(tick) : 0;
}

const char* test_failure_requested() {
  const char* v = std::getenv("COOPVIZ_TEST_GPU_FAILURE");
  if (v == nullptr) return nullptr;
  if (std::strcmp(v, "fault") == 0) return "fault";
  if (std::strcmp(v, "spin") == 0) return "spin";
  return nullptr;
}

int launch_test_failure(const char* what, double seconds, void* stream) {
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (std::strcmp(what, "fault") == 0)
    test_fault<<<1, 32, 0, s>>>(reinterpret_cast<int*>(uintptr_t(8)));
  else
    test_spin<<<1, 1, 0, s>>>((unsigned long long)(seconds * 1e9));
  return int(cudaGetLastError());
}

}  // namespace coop::gpu
