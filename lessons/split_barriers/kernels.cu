#include "lessons/split_barriers/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/split_barriers/split_barriers.cuh"

namespace coop::lessons::split_barriers {

// The hazard kernels are valid CUDA and built here, but the lesson never launches them on a GPU.
void bind_gpu(Kernels& k) {
  k.block_split.gpu = COOP_GPU_ENTRY(block_split);
  k.cluster_split.gpu = COOP_GPU_ENTRY(cluster_split);
  k.sync_inside_split.gpu = COOP_GPU_ENTRY(sync_inside_split);
  k.reuse_after_wait.gpu = COOP_GPU_ENTRY(reuse_after_wait);
}

}  // namespace coop::lessons::split_barriers
