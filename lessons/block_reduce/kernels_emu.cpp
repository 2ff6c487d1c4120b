#include "lessons/block_reduce/kernels.hpp"

// block_reduce.cuh, lowered for the emulator at build time (namespace lessons::emulated::...).
#include "block_reduce.emu.cuh"

namespace coop::lessons::block_reduce {

void bind_emu(Kernels& k) {
  k.reduce_block.emu = &emulated::block_reduce::reduce_block;
  k.reduce_tiles.emu = &emulated::block_reduce::reduce_tiles;
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

}  // namespace coop::lessons::block_reduce
