#include "lessons/divergence_and_coalesced/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// divergence_and_coalesced.cuh, lowered for the emulator at build time.
#include "divergence_and_coalesced.emu.cuh"

namespace coop::lessons::divergence_and_coalesced {

void bind_emu(Kernels& k) {
  k.branch_ranks.emu = &emulated::divergence_and_coalesced::branch_ranks;
  k.keep_per_thread.emu = &emulated::divergence_and_coalesced::keep_per_thread;
  k.keep_aggregated.emu = &emulated::divergence_and_coalesced::keep_aggregated;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::divergence_and_coalesced
