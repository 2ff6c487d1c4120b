// Launches `kernel(out)` as clusters of two blocks of 32 threads: the race suite's kernels that
// read a neighbour's shared memory.
#pragma once
#include <cuda_runtime.h>

inline cudaError_t launch_in_pairs(void (*kernel)(int*), int* out) {
  cudaLaunchConfig_t pair = {};
  pair.gridDim = dim3(2);
  pair.blockDim = dim3(32);
  cudaLaunchAttribute two[1];
  two[0].id = cudaLaunchAttributeClusterDimension;
  two[0].val.clusterDim.x = 2;
  two[0].val.clusterDim.y = 1;
  two[0].val.clusterDim.z = 1;
  pair.attrs = two;
  pair.numAttrs = 1;
  return cudaLaunchKernelEx(&pair, kernel, out);
}
