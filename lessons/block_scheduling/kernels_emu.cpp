#include "lessons/block_scheduling/kernels.hpp"

// block_scheduling.cuh, lowered for the emulator at build time.
#include "block_scheduling.emu.cuh"

namespace coop::lessons::block_scheduling {

void bind_emu(Kernels& k) {
  k.timed_blocks.emu = &emulated::block_scheduling::timed_blocks;
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

}  // namespace coop::lessons::block_scheduling
