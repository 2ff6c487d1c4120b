#include "tests/kernels/cgapi/kernels.hpp"

#include "device/gpu/module.cuh"
#include "tests/kernels/cgapi/cgapi.cuh"

namespace coop::lessons::cgapi {

void bind_gpu(Kernels& k) {
  k.accessors.gpu = COOP_GPU_ENTRY(accessors);
  k.tiles.gpu = COOP_GPU_ENTRY(tiles);
  k.tile_collectives.gpu = COOP_GPU_ENTRY(tile_collectives);
  k.coalesced.gpu = COOP_GPU_ENTRY(coalesced);
  k.partitions.gpu = COOP_GPU_ENTRY(partitions);
  k.tile_reduce.gpu = COOP_GPU_ENTRY(tile_reduce);
  k.tile_scans.gpu = COOP_GPU_ENTRY(tile_scans);
  k.block_collectives.gpu = COOP_GPU_ENTRY(block_collectives);
  k.invoke.gpu = COOP_GPU_ENTRY(invoke);
  k.block_barriers.gpu = COOP_GPU_ENTRY(block_barriers);
  k.grid_barriers.gpu = COOP_GPU_ENTRY(grid_barriers);
  k.cluster_dsmem.gpu = COOP_GPU_ENTRY(cluster_dsmem);
  k.async_copy.gpu = COOP_GPU_ENTRY(async_copy);
  k.atomics.gpu = COOP_GPU_ENTRY(atomics);
  k.partition_in_branch.gpu = COOP_GPU_ENTRY(partition_in_branch);
  k.shfl_in_branch.gpu = COOP_GPU_ENTRY(shfl_in_branch);
  k.collective_inside_split_barrier.gpu = COOP_GPU_ENTRY(collective_inside_split_barrier);
  k.spin_forever.gpu = COOP_GPU_ENTRY(spin_forever);
}

}  // namespace coop::lessons::cgapi
