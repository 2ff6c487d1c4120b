// CUDA's limit on launches from kernels (CDP2), met on purpose: no more launches outstanding at
// once than cudaLimitDevRuntimePendingLaunchCount (2048 unless the host sets it, before its first
// launch, to the number given as this program's argument). A launch is outstanding from when it
// is made until its grid is complete, and a grid is complete only after its children are. So a
// kernel that launches itself without end holds its whole chain outstanding: the grid at depth
// `limit` (the host's launch is at 0) is the deepest, and its launch fails with
// cudaErrorLaunchPendingCountExceeded. And 2 x limit threads each launching a child see at least
// `limit` launches made and the rest refused the same way (on a GPU children that finish early
// free their places, so more may be made). Each thread reads its own launch's error, as the
// device runtime keeps errors per thread.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__device__ int deepest;
__device__ int depth_error;
__device__ int launched, refused, other;
__device__ int other_error;  // the first error that was neither, to be named

__global__ void dive(int depth) {
  atomicMax(&deepest, depth);
  dive<<<1, 1>>>(depth + 1);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) depth_error = int(e);
}

__global__ void leaf() {}

__global__ void fan_out(int threads) {
  if (blockIdx.x * blockDim.x + threadIdx.x >= unsigned(threads)) return;
  leaf<<<1, 1, 0, cudaStreamFireAndForget>>>();
  const cudaError_t e = cudaGetLastError();
  atomicAdd(e == cudaSuccess ? &launched : e == cudaErrorLaunchPendingCountExceeded ? &refused
                                                                                  : &other,
            1);
  if (e != cudaSuccess && e != cudaErrorLaunchPendingCountExceeded)
    atomicCAS(&other_error, 0, int(e));
}

int main(int argc, char** argv) {
  if (argc > 1) {
    const long asked = std::strtol(argv[1], nullptr, 10);
    if (asked <= 0) {
      std::fprintf(stderr, "launch_limits: the pending launch limit must be a positive number\n");
      return 2;
    }
    const cudaError_t set =
        cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, size_t(asked));
    if (set != cudaSuccess) {
      std::printf("cudaDeviceSetLimit: %s\nFAILED\n", cudaGetErrorName(set));
      return 1;
    }
  }
  size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount);

  dive<<<1, 1>>>(0);
  cudaError_t e = cudaDeviceSynchronize();
  int deep = 0, error = 0;
  cudaMemcpyFromSymbol(&deep, deepest, sizeof deep);
  cudaMemcpyFromSymbol(&error, depth_error, sizeof error);
  std::printf("deepest grid at depth %d; the launch below it: %s\n", deep,
              cudaGetErrorName(cudaError_t(error)));
  bool ok = e == cudaSuccess && error == cudaErrorLaunchPendingCountExceeded &&
            size_t(deep) == limit;

  const int threads = int(2 * limit);
  fan_out<<<(threads + 255) / 256, 256>>>(threads);
  e = cudaDeviceSynchronize();
  int n_launched = 0, n_refused = 0, n_other = 0, first_other = 0;
  cudaMemcpyFromSymbol(&n_launched, launched, sizeof(int));
  cudaMemcpyFromSymbol(&n_refused, refused, sizeof(int));
  cudaMemcpyFromSymbol(&n_other, other, sizeof(int));
  cudaMemcpyFromSymbol(&first_other, other_error, sizeof(int));
  std::printf("pending launch limit %zu: %d threads, %d launched, %d refused\n", limit, threads,
              n_launched, n_refused);
  if (n_other > 0)
    std::printf("%d launches failed otherwise, the first with %s\n", n_other,
                cudaGetErrorName(cudaError_t(first_other)));
  ok = ok && e == cudaSuccess && n_other == 0 && size_t(n_launched) >= limit &&
       n_launched + n_refused == threads;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
