// cudaGetLastError and cudaPeekAtLastError as a user's program calls them on the GPU. A <<<>>>
// launch coopviz refused never reached CUDA's runtime, which would then report success; the
// program is linked with --wrap for both (app/program/program.cpp), so every call, however
// spelled (::cudaGetLastError in CCCL's headers too), reads the launch's kept error first
// (gpu_launch.hpp), then CUDA's, and clears both as CUDA clears its own. Only such a link pulls
// this file in, and only it defines the __real_ functions.
#include <cuda_runtime.h>

#include "device/byo/gpu_launch.hpp"

extern "C" cudaError_t __real_cudaGetLastError();
extern "C" cudaError_t __real_cudaPeekAtLastError();

extern "C" cudaError_t __wrap_cudaGetLastError() {
  const cudaError_t cuda = __real_cudaGetLastError();
  const cudaError_t kept = coop::byo::kept_launch_error(true);
  return kept != cudaSuccess ? kept : cuda;
}

extern "C" cudaError_t __wrap_cudaPeekAtLastError() {
  const cudaError_t kept = coop::byo::kept_launch_error(false);
  return kept != cudaSuccess ? kept : __real_cudaPeekAtLastError();
}
