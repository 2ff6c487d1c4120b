#include "lessons/grid_sync/kernels.hpp"

// grid_sync.cuh, lowered for the emulator at build time.
#include "grid_sync.emu.cuh"

namespace coop::lessons::grid_sync {

void bind_emu(Kernels& k) {
  k.reduce_grid_sync.emu = &emulated::grid_sync::reduce_grid_sync;
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

}  // namespace coop::lessons::grid_sync
