#include "lessons/tiled_partitions/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// tiled_partitions.cuh, lowered for the emulator at build time.
#include "tiled_partitions.emu.cuh"

namespace coop::lessons::tiled_partitions {

void bind_emu(Kernels& k) {
  k.every_nth_prints.emu = &emulated::tiled_partitions::every_nth_prints;
  k.tiles_of_tiles.emu = &emulated::tiled_partitions::tiles_of_tiles;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::tiled_partitions
