#include "app/bench/kernels/kernels.hpp"

#include "bench_kernels.emu.cuh"

namespace coop::lessons::bench {

const Kernels& kernels() {
  static const Kernels bound = [] {
    Kernels k;
    bind_gpu(k);
    k.staged_sum.emu = &emulated::bench::staged_sum;
    k.tree_sum_1024.emu = &emulated::bench::tree_sum_1024;
    k.traced_grid_sum.emu = &emulated::bench::traced_grid_sum;
    return k;
  }();
  return bound;
}

}  // namespace coop::lessons::bench
