// Kernels that wait a fixed time of GPU time, in the manner of NVIDIA's concurrentKernels and
// simpleHyperQ samples (a clock_block kernel spins on clock() so that streams visibly overlap):
// the wait is sized from the device's clock rate, one kernel per stream. A second kernel waits on
// clock64(), and a third sleeps with __nanosleep while it reads %globaltimer through inline PTX.
// Each checks that the time it waited is at least the time asked for, and the host reports how
// long the waits took on its own clock.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common/sample_checks.h"

// Spins until clock_count clocks have passed, and stores how many did.
__global__ void clock_block(clock_t *d_o, clock_t clock_count) {
  unsigned int start_clock = (unsigned int)clock();
  clock_t clock_offset = 0;
  while (clock_offset < clock_count) {
    unsigned int end_clock = (unsigned int)clock();
    // The counter may wrap; the unsigned difference is still right.
    clock_offset = (clock_t)(end_clock - start_clock);
  }
  d_o[blockIdx.x] = clock_offset;
}

// The same wait on the 64-bit counter, by every thread of the block.
__global__ void spin_clock64(long long *waited, long long cycles) {
  long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  waited[blockIdx.x * blockDim.x + threadIdx.x] = now - start;
}

__device__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Sleeps `steps` times for `ns` each, and stores the nanoseconds %globaltimer saw pass.
__global__ void sleep_steps(unsigned long long *slept, unsigned ns, int steps) {
  unsigned long long start = global_timer();
  for (int i = 0; i < steps; i++) __nanosleep(ns);
  slept[threadIdx.x] = global_timer() - start;
}

int main() {
  const int nkernels = 4;
  const float kernel_time = 10;  // ms of GPU time each
  int clock_rate_khz = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&clock_rate_khz, cudaDevAttrClockRate, 0));
  const clock_t time_clocks = (clock_t)(kernel_time * clock_rate_khz);
  printf("clock rate %d kHz: %.0f ms is %ld clocks\n", clock_rate_khz, kernel_time,
         (long)time_clocks);

  clock_t *d_a = 0;
  long long *d_waited = 0;
  unsigned long long *d_slept = 0;
  CHECK_CUDA(cudaMalloc((void **)&d_a, nkernels * sizeof(clock_t)));
  CHECK_CUDA(cudaMalloc((void **)&d_waited, 4 * 64 * sizeof(long long)));
  CHECK_CUDA(cudaMalloc((void **)&d_slept, 32 * sizeof(unsigned long long)));
  cudaStream_t streams[nkernels];
  for (int i = 0; i < nkernels; ++i) CHECK_CUDA(cudaStreamCreate(&streams[i]));

  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < nkernels; ++i) {
    clock_block<<<1, 1, 0, streams[i]>>>(&d_a[i], time_clocks);
    CHECK_LAUNCH();
  }
  spin_clock64<<<4, 64>>>(d_waited, (long long)time_clocks);
  CHECK_LAUNCH();
  const unsigned sleep_ns = 20000;
  const int sleeps = 50;
  sleep_steps<<<1, 32>>>(d_slept, sleep_ns, sleeps);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  clock_t a[nkernels];
  long long waited[4 * 64];
  unsigned long long slept[32];
  CHECK_CUDA(cudaMemcpy(a, d_a, sizeof a, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(waited, d_waited, sizeof waited, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(slept, d_slept, sizeof slept, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < nkernels; ++i) wrong += a[i] < time_clocks;
  for (int i = 0; i < 4 * 64; ++i) wrong += waited[i] < (long long)time_clocks;
  // A GPU sleeps roughly as long as asked (up to twice); the time seen must at least be there.
  for (int i = 0; i < 32; ++i) wrong += slept[i] < (unsigned long long)sleep_ns * sleeps / 2;
  printf("waited %.1f ms of GPU time in each of %d kernels; %.3f s of wall time\n",
         (double)a[0] / clock_rate_khz, nkernels + 1, wall);
  // Five kernels of 10 ms each: a GPU takes tens of ms (more with a launch recorder in the way),
  // an emulator in modelled time far less than a second; either way not seconds.
  if (wall > 5.0) wrong++;
  for (int i = 0; i < nkernels; ++i) CHECK_CUDA(cudaStreamDestroy(streams[i]));
  CHECK_CUDA(cudaFree(d_a));
  CHECK_CUDA(cudaFree(d_waited));
  CHECK_CUDA(cudaFree(d_slept));
  if (wrong) {
    printf("FAILED (%d wrong)\n", wrong);
    return EXIT_FAILURE;
  }
  printf("PASSED\n");
  return EXIT_SUCCESS;
}
