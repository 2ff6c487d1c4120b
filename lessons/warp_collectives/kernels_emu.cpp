#include "lessons/warp_collectives/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// warp_collectives.cuh, lowered for the emulator at build time (namespace lessons::emulated::...).
#include "warp_collectives.emu.cuh"

namespace coop::lessons::warp_collectives {

void bind_emu(Kernels& k) {
  k.lanes_move.emu = &emulated::warp_collectives::lanes_move;
  k.warp_sum.emu = &emulated::warp_collectives::warp_sum;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::warp_collectives
