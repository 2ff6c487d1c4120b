#include "lessons/collectives/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// collectives.cuh, lowered for the emulator at build time (namespace lessons::emulated::...).
#include "collectives.emu.cuh"

namespace coop::lessons::collectives {

void bind_emu(Kernels& k) {
  k.reduce_six_ways.emu = &emulated::collectives::reduce_six_ways;
  k.pack_runs.emu = &emulated::collectives::pack_runs;
  k.one_for_all.emu = &emulated::collectives::one_for_all;
  k.sum_hardware.emu = &emulated::collectives::sum_hardware;
  k.sum_shuffles.emu = &emulated::collectives::sum_shuffles;
  k.sum_wide.emu = &emulated::collectives::sum_wide;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::collectives
