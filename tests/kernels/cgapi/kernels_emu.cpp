#include "tests/kernels/cgapi/kernels.hpp"

#include "cgapi.emu.cuh"

namespace coop::lessons::cgapi {

const Kernels& kernels() {
  static const Kernels bound = [] {
    Kernels k;
    bind_gpu(k);
    namespace e = emulated::cgapi;
    k.accessors.emu = &e::accessors;
    k.tiles.emu = &e::tiles;
    k.tile_collectives.emu = &e::tile_collectives;
    k.coalesced.emu = &e::coalesced;
    k.partitions.emu = &e::partitions;
    k.tile_reduce.emu = &e::tile_reduce;
    k.tile_scans.emu = &e::tile_scans;
    k.block_collectives.emu = &e::block_collectives;
    k.invoke.emu = &e::invoke;
    k.block_barriers.emu = &e::block_barriers;
    k.grid_barriers.emu = &e::grid_barriers;
    k.cluster_dsmem.emu = &e::cluster_dsmem;
    k.async_copy.emu = &e::async_copy;
    k.atomics.emu = &e::atomics;
    k.partition_in_branch.emu = &e::partition_in_branch;
    k.shfl_in_branch.emu = &e::shfl_in_branch;
    k.collective_inside_split_barrier.emu = &e::collective_inside_split_barrier;
    k.spin_forever.emu = &e::spin_forever;
    return k;
  }();
  return bound;
}

}  // namespace coop::lessons::cgapi
