#include "lessons/atomics_and_races/kernels.hpp"

// atomics_and_races.cuh, lowered for the emulator at build time.
#include "atomics_and_races.emu.cuh"

namespace coop::lessons::atomics_and_races {

void bind_emu(Kernels& k) {
  k.racy_sum.emu = &emulated::atomics_and_races::racy_sum;
  k.racy_block_sum.emu = &emulated::atomics_and_races::racy_block_sum;
  k.atomic_sum.emu = &emulated::atomics_and_races::atomic_sum;
  k.staged_sum.emu = &emulated::atomics_and_races::staged_sum;
  k.spread_add.emu = &emulated::atomics_and_races::spread_add;
  k.count_both.emu = &emulated::atomics_and_races::count_both;
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

}  // namespace coop::lessons::atomics_and_races
