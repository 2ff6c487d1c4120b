#include "lessons/atomic_scopes/kernels.hpp"

// atomic_scopes.cuh, lowered for the emulator at build time.
#include "atomic_scopes.emu.cuh"

namespace coop::lessons::atomic_scopes {

void bind_emu(Kernels& k) {
  k.scoped_counts.emu = &emulated::atomic_scopes::scoped_counts;
  k.sum_reduction.emu = &emulated::atomic_scopes::sum_reduction;
  k.message_relaxed.emu = &emulated::atomic_scopes::message_relaxed;
  k.message_release_acquire.emu = &emulated::atomic_scopes::message_release_acquire;
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

}  // namespace coop::lessons::atomic_scopes
