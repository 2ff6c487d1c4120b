#include "tests/kernels/basics/kernels.hpp"

#include "basics.emu.cuh"

namespace coop::lessons::basics {

const Kernels& kernels() {
  static const Kernels bound = [] {
    Kernels k;
    bind_gpu(k);
    namespace e = emulated::basics;
    k.racy_increment.emu = &e::racy_increment;
    k.atomic_increment.emu = &e::atomic_increment;
    k.sync_in_branch.emu = &e::sync_in_branch;
    k.tile_shuffles.emu = &e::tile_shuffles;
    k.shared_per_block.emu = &e::shared_per_block;
    return k;
  }();
  return bound;
}

}  // namespace coop::lessons::basics
