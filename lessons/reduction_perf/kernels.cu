#include "lessons/reduction_perf/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/reduction_perf/reduction_perf.cuh"

namespace coop::lessons::reduction_perf {

void bind_gpu(Kernels& k) {
  k.seed_atomic.gpu = COOP_GPU_ENTRY(seed_atomic);
  k.seed_group.gpu = COOP_GPU_ENTRY(seed_group);
  k.seed_grid_sync.gpu = COOP_GPU_ENTRY(seed_grid_sync);
  k.seed_tile32.gpu = COOP_GPU_ENTRY(seed_tile32);
  k.interleaved_divergent.gpu = COOP_GPU_ENTRY(interleaved_divergent);
  k.sequential.gpu = COOP_GPU_ENTRY(sequential);
  k.first_add.gpu = COOP_GPU_ENTRY(first_add);
  k.last_warp_shuffles.gpu = COOP_GPU_ENTRY(last_warp_shuffles);
  k.grid_stride.gpu = COOP_GPU_ENTRY(grid_stride);
  k.tile_reduce.gpu = COOP_GPU_ENTRY(tile_reduce);
  k.vector_loads.gpu = COOP_GPU_ENTRY(vector_loads);
  k.tuned.gpu = COOP_GPU_ENTRY(tuned);
}

}  // namespace coop::lessons::reduction_perf
