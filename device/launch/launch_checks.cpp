#include "device/launch/launch_checks.hpp"

#include <cstdint>
#include <string>

#include "device/occupancy/occupancy.hpp"

namespace coop {

namespace {

std::string dims_message(const char* what, const Dim3& d, const Dim3& max) {
  const char* axis[3] = {"x", "y", "z"};
  const uint32_t v[3] = {d.x, d.y, d.z}, m[3] = {max.x, max.y, max.z};
  for (int i = 0; i < 3; ++i)
    if (v[i] > m[i])
      return std::string(what) + " " + axis[i] + " = " + std::to_string(v[i]) +
             " exceeds the device limit of " + std::to_string(m[i]);
  return {};
}

}  // namespace

Status validate_shape(const LaunchConfig& c, const DeviceProps& d, const KernelResources& k) {
  const uint64_t threads = c.block.count();
  if (c.block.x == 0 || c.block.y == 0 || c.block.z == 0 || c.grid.x == 0 || c.grid.y == 0 ||
      c.grid.z == 0)
    return Status::error("grid and block dimensions must all be at least 1");
  if (threads > uint64_t(d.max_threads_per_block))
    return Status::error("block of " + std::to_string(threads) + " threads (" + c.block.str() +
                         ") exceeds the limit of " + std::to_string(d.max_threads_per_block) +
                         " threads per block");
  if (std::string m = dims_message("block", c.block, d.max_block_dims); !m.empty())
    return Status::error(m);
  if (std::string m = dims_message("grid", c.grid, d.max_grid_dims); !m.empty())
    return Status::error(m);
  if (int64_t(threads) > k.max_threads_per_block)
    return Status::error(
        "block of " + std::to_string(threads) + " threads exceeds this kernel's limit of " +
        std::to_string(k.max_threads_per_block) + " (its register use or __launch_bounds__)");
  // Checked without forming the product: a 2^31 x 65535 x 65535 grid of 1024-thread blocks
  // wraps 64 bits around to fewer than 2^32 threads.
  if (count_exceeds(c.grid, threads, 0xffffffffull))
    return Status::error("grid of " + c.grid.str() + " blocks x " + std::to_string(threads) +
                         " threads exceeds the 4294967295 a traced launch can number");
  const size_t smem = k.static_smem + c.dynamic_smem;
  const size_t smem_limit = max_smem_per_block(d);
  // The first test keeps a (nonsensical) static size near 2^64 from wrapping the sum around.
  if (k.static_smem > smem_limit || smem > smem_limit)
    return Status::error("shared memory of " + std::to_string(smem) + " bytes per block (" +
                         std::to_string(k.static_smem) + " static + " +
                         std::to_string(c.dynamic_smem) + " dynamic) exceeds the " +
                         std::to_string(smem_limit) + " bytes a block may use on " + d.name);
  if (c.mode == LaunchMode::Cluster) {
    if (c.cluster.x == 0 || c.cluster.y == 0 || c.cluster.z == 0)
      return Status::error("cluster " + c.cluster.str() + ": every dimension must be at least 1");
    if (!d.cluster_launch)
      return Status::error("thread block clusters need compute capability 9.0 or newer; " + d.name +
                           " is " + d.cc_string());
    const uint64_t cluster = c.cluster.count();
    if (cluster > uint64_t(d.max_cluster_size))
      return Status::error("cluster of " + std::to_string(cluster) +
                           " blocks exceeds the portable "
                           "limit of " +
                           std::to_string(d.max_cluster_size) + " blocks");
    if (c.grid.x % c.cluster.x || c.grid.y % c.cluster.y || c.grid.z % c.cluster.z)
      return Status::error("grid " + c.grid.str() + " is not a multiple of the cluster " +
                           c.cluster.str());
  }
  return {};
}

uint64_t max_cooperative_blocks(const LaunchConfig& c, const DeviceProps& d,
                                const KernelResources& k) {
  Result<OccupancyResult> r = launch_occupancy(d, c, k);
  return r ? r->max_cooperative_grid : 0;
}

Status validate_launch(const LaunchConfig& c, const DeviceProps& d, const KernelResources& k) {
  if (Status s = validate_shape(c, d, k); !s) return s;
  Result<OccupancyResult> occ = launch_occupancy(d, c, k);
  if (!occ) return occ.status();
  const uint64_t most = occ->max_cooperative_grid;
  if (most == 0) return Status::error(occ->does_not_fit);
  if (c.mode == LaunchMode::Cooperative) {
    if (!d.cooperative_launch)
      return Status::error(d.name +
                           " does not support cooperative launch "
                           "(cudaDevAttrCooperativeLaunch is 0)");
    if (c.grid.count() > most)
      return Status::error("grid of " + std::to_string(c.grid.count()) + " blocks exceeds the " +
                           std::to_string(most) + " that can be co-resident on " + d.name +
                           " with " + std::to_string(c.block.count()) +
                           " threads per block: cooperative launch refused");
  }
  return {};
}

}  // namespace coop
