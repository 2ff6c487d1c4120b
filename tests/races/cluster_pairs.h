// A launch configuration of clusters of two blocks of 32 threads, for the race suite's kernels
// that read a neighbour's shared memory. The kernel is launched in the test file itself, where
// cudaLaunchKernelEx names it.
#pragma once
#include <cuda_runtime.h>

inline void clusters_of_two(cudaLaunchConfig_t& config, cudaLaunchAttribute (&attribute)[1]) {
  config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(32);
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
}
