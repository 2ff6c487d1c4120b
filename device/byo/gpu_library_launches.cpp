// Launches a user's program makes of kernels not its own. Thrust's and CUB's headers launch their
// kernels themselves (with <<<>>>, or cudaLaunchKernelEx for programmatic dependent launch), out of
// the lowering's reach, straight into CUDA's runtime: nvcc's code for <<<>>> calls
// __cudaLaunchKernel with the kernel's handle (CUDA 13; _ptsz with per-thread default streams),
// older code cudaLaunchKernel. A program nvcc builds whole is linked with --wrap for all four
// (app/program/program.cpp), so each such launch passes here on its way: counted by kernel for the
// trace, then made exactly as asked. Only such a link pulls this file in, and only it defines the
// __real_ functions.
#include <cuda_runtime.h>

#include "device/byo/gpu_launch.hpp"

extern "C" cudaError_t __real_cudaLaunchKernel(const void* function, dim3 grid, dim3 block,
                                               void** args, size_t shared_bytes,
                                               cudaStream_t stream);
extern "C" cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t* config,
                                                  const void* function, void** args);
extern "C" cudaError_t __real___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                 void** args, size_t shared_bytes,
                                                 cudaStream_t stream);
extern "C" cudaError_t __real___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                      void** args, size_t shared_bytes,
                                                      cudaStream_t stream);

extern "C" cudaError_t __wrap_cudaLaunchKernel(const void* function, dim3 grid, dim3 block,
                                               void** args, size_t shared_bytes,
                                               cudaStream_t stream) {
  coop::byo::count_library_launch(function, grid, block);
  return __real_cudaLaunchKernel(function, grid, block, args, shared_bytes, stream);
}

extern "C" cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config,
                                                  const void* function, void** args) {
  if (config) coop::byo::count_library_launch(function, config->gridDim, config->blockDim);
  return __real_cudaLaunchKernelExC(config, function, args);
}

extern "C" cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                 void** args, size_t shared_bytes,
                                                 cudaStream_t stream) {
  coop::byo::count_library_launch(kernel, grid, block, true);
  return __real___cudaLaunchKernel(kernel, grid, block, args, shared_bytes, stream);
}

extern "C" cudaError_t __wrap___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                                      void** args, size_t shared_bytes,
                                                      cudaStream_t stream) {
  coop::byo::count_library_launch(kernel, grid, block, true);
  return __real___cudaLaunchKernel_ptsz(kernel, grid, block, args, shared_bytes, stream);
}
