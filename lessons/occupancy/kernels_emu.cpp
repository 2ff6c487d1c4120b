#include "lessons/occupancy/kernels.hpp"

// occupancy.cuh, lowered for the emulator at build time (namespace lessons::emulated::...).
#include "occupancy.emu.cuh"

namespace coop::lessons::occupancy {

void bind_emu(Kernels& k) {
  k.count_resident.emu = &emulated::occupancy::count_resident;
  k.many_live_values.emu = &emulated::occupancy::many_live_values;
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

}  // namespace coop::lessons::occupancy
