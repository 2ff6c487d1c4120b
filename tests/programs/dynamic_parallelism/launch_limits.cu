// CUDA's limits on launches from kernels, each met on purpose: a kernel that launches itself
// without end stops at the deepest nesting CUDA allows, where its launch fails with
// cudaErrorLaunchMaxDepthExceeded; and with cudaLimitDevRuntimePendingLaunchCount lowered to 32,
// 64 threads each launching a child leave launches refused with
// cudaErrorLaunchPendingCountExceeded. Each thread reads its own launch's error, as the device
// runtime keeps errors per thread.
#include <cuda_runtime.h>

#include <cstdio>

__device__ int deepest;
__device__ int depth_error;
__device__ int launched, refused, other;

__global__ void dive(int depth) {
  atomicMax(&deepest, depth);
  dive<<<1, 1>>>(depth + 1);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) depth_error = int(e);
}

__global__ void leaf() {}

__global__ void fan_out() {
  leaf<<<1, 1, 0, cudaStreamFireAndForget>>>();
  const cudaError_t e = cudaGetLastError();
  atomicAdd(e == cudaSuccess ? &launched : e == cudaErrorLaunchPendingCountExceeded ? &refused
                                                                                  : &other,
            1);
}

int main() {
  dive<<<1, 1>>>(0);
  cudaError_t e = cudaDeviceSynchronize();
  int deep = 0, error = 0;
  cudaMemcpyFromSymbol(&deep, deepest, sizeof deep);
  cudaMemcpyFromSymbol(&error, depth_error, sizeof error);
  std::printf("deepest grid at depth %d; the launch below it: %s\n", deep,
              cudaGetErrorName(cudaError_t(error)));
  bool ok = e == cudaSuccess && error == cudaErrorLaunchMaxDepthExceeded && deep >= 23;

  cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 32);
  size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount);
  fan_out<<<1, 64>>>();
  e = cudaDeviceSynchronize();
  int n_launched = 0, n_refused = 0, n_other = 0;
  cudaMemcpyFromSymbol(&n_launched, launched, sizeof(int));
  cudaMemcpyFromSymbol(&n_refused, refused, sizeof(int));
  cudaMemcpyFromSymbol(&n_other, other, sizeof(int));
  std::printf("pending launch limit %zu: %d launched, %d refused\n", limit, n_launched, n_refused);
  ok = ok && e == cudaSuccess && n_other == 0 && n_launched >= 32 && n_launched + n_refused == 64;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
