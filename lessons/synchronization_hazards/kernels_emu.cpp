#include "lessons/synchronization_hazards/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// synchronization_hazards.cuh, lowered for the emulator at build time.
#include "synchronization_hazards.emu.cuh"

namespace coop::lessons::synchronization_hazards {

void bind_emu(Kernels& k) {
  namespace lowered = emulated::synchronization_hazards;
  k.three_spellings.emu = &lowered::three_spellings;
  k.half_block_fixed.emu = &lowered::half_block_fixed;
  k.half_block_deadlock.emu = &lowered::half_block_deadlock;
  k.partition_in_branch.emu = &lowered::partition_in_branch;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::synchronization_hazards
