// The traced-API feature kernels (cgapi.cuh) as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::cgapi {

struct Kernels {
  Kernel<int*> accessors{"accessors", {}, nullptr};
  Kernel<int*> tiles{"tiles", {}, nullptr};
  Kernel<int*> tile_collectives{"tile_collectives", {}, nullptr};
  Kernel<int*, float*> coalesced{"coalesced", {}, nullptr};
  Kernel<int*, float*> partitions{"partitions", {}, nullptr};
  Kernel<const int*, const float*, int*, float*> tile_reduce{"tile_reduce", {}, nullptr};
  Kernel<const int*, const float*, int*, float*> tile_scans{"tile_scans", {}, nullptr};
  Kernel<const int*, const float*, int*, float*> block_collectives{"block_collectives", {}, nullptr};
  Kernel<int*, int*> invoke{"invoke", {}, nullptr};
  Kernel<int*> block_barriers{"block_barriers", {}, nullptr};
  Kernel<int*, int*> grid_barriers{"grid_barriers", {}, nullptr};
  Kernel<int*> cluster_dsmem{"cluster_dsmem", {}, nullptr};
  Kernel<const int*, int*> async_copy{"async_copy", {}, nullptr};
  Kernel<int*, float*, unsigned*, int*> atomics{"atomics", {}, nullptr};
  Kernel<int*> partition_in_branch{"partition_in_branch", {}, nullptr};
  Kernel<int*> shfl_in_branch{"shfl_in_branch", {}, nullptr};
  Kernel<int*> collective_inside_split_barrier{"collective_inside_split_barrier", {}, nullptr};
  Kernel<int*> spin_forever{"spin_forever", {}, nullptr};
};

const Kernels& kernels();
void bind_gpu(Kernels& k);

}  // namespace coop::lessons::cgapi
