#include "lessons/split_barriers/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// split_barriers.cuh, lowered for the emulator at build time.
#include "split_barriers.emu.cuh"

namespace coop::lessons::split_barriers {

void bind_emu(Kernels& k) {
  namespace lowered = emulated::split_barriers;
  k.block_split.emu = &lowered::block_split;
  k.cluster_split.emu = &lowered::cluster_split;
  k.sync_inside_split.emu = &lowered::sync_inside_split;
  k.reuse_after_wait.emu = &lowered::reuse_after_wait;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::split_barriers
