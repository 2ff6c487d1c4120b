#include "lessons/reduction_perf/kernels.hpp"

// reduction_perf.cuh, lowered for the emulator at build time (namespace lessons::emulated::...).
#include "reduction_perf.emu.cuh"

namespace coop::lessons::reduction_perf {

void bind_emu(Kernels& k) {
  namespace e = emulated::reduction_perf;
  k.seed_atomic.emu = &e::seed_atomic;
  k.seed_group.emu = &e::seed_group;
  k.seed_grid_sync.emu = &e::seed_grid_sync;
  k.seed_tile32.emu = &e::seed_tile32;
  k.interleaved_divergent.emu = &e::interleaved_divergent;
  k.sequential.emu = &e::sequential;
  k.first_add.emu = &e::first_add;
  k.last_warp_shuffles.emu = &e::last_warp_shuffles;
  k.grid_stride.emu = &e::grid_stride;
  k.tile_reduce.emu = &e::tile_reduce;
  k.vector_loads.emu = &e::vector_loads;
  k.tuned.emu = &e::tuned;
}

const Kernels& kernels() {
  static const Kernels bound = [] {
    Kernels k;
    bind_gpu(k);
    bind_emu(k);
    return k;
  }();
  return bound;
}

}  // namespace coop::lessons::reduction_perf
