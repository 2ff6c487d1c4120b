#include "app/bench/kernels/kernels.hpp"

#include "app/bench/kernels/bench_kernels.cuh"
#include "device/gpu/module.cuh"

namespace coop::lessons::bench {

void bind_gpu(Kernels& k) {
  k.staged_sum.gpu = COOP_GPU_ENTRY(staged_sum);
  k.tree_sum_1024.gpu = COOP_GPU_ENTRY(tree_sum_1024);
  k.traced_grid_sum.gpu = COOP_GPU_ENTRY(traced_grid_sum);
}

}  // namespace coop::lessons::bench
