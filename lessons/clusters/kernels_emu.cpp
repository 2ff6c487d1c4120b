#include "lessons/clusters/kernels.hpp"

// clusters.cuh, lowered for the emulator at build time.
#include "clusters.emu.cuh"

namespace coop::lessons::clusters {

void bind_emu(Kernels& k) {
  k.ring_exchange.emu = &emulated::clusters::ring_exchange;
  k.cluster_histogram.emu = &emulated::clusters::cluster_histogram;
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

}  // namespace coop::lessons::clusters
