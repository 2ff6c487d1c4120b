// A user program's launch as its rewritten source describes it, for both backends' runtimes
// (runtime.hpp for the emulator, gpu_runtime.cuh for the GPU).
#pragma once

#include <cstddef>
#include <tuple>

#include "device/launch/dims.hpp"
#include "device/launch/launch_config.hpp"

namespace coop::byo {

struct LaunchShape {
  Dim3 grid, block, cluster{1, 1, 1};
  size_t dynamic_smem = 0;
  bool cooperative = false, clustered = false;

  LaunchConfig config() const {
    LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.dynamic_smem = uint32_t(dynamic_smem);
    c.mode = cooperative ? LaunchMode::Cooperative
             : clustered ? LaunchMode::Cluster
                         : LaunchMode::Normal;
    if (clustered) c.cluster = cluster;
    return c;
  }
};

// cudaLaunchKernelEx's configuration (CUDA's cudaLaunchConfig_t or the emulator's): its shape,
// with the cluster dimension and cooperative attributes teaching programs set.
template <class Config>
LaunchShape shape_of(const Config& config, int cluster_id, int cooperative_id) {
  LaunchShape s;
  s.grid = dims_of(config.gridDim);
  s.block = dims_of(config.blockDim);
  s.dynamic_smem = config.dynamicSmemBytes;
  for (unsigned i = 0; i < config.numAttrs; ++i) {
    const auto& a = config.attrs[i];
    if (int(a.id) == cluster_id) {
      s.clustered = true;
      s.cluster = {a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
    } else if (int(a.id) == cooperative_id) {
      s.cooperative = a.val.cooperative != 0;
    }
  }
  return s;
}

// The addresses of a tuple's elements, as cudaLaunchKernel's argument array.
template <class Tuple>
void point_at(Tuple& values, void** out) {
  std::apply([&](auto&... v) {
    int i = 0;
    ((out[i++] = static_cast<void*>(&v)), ...);
  }, values);
}

}  // namespace coop::byo
