#include "lessons/divergence_and_coalesced/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/divergence_and_coalesced/divergence_and_coalesced.cuh"

namespace coop::lessons::divergence_and_coalesced {

void bind_gpu(Kernels& k) {
  k.branch_ranks.gpu = COOP_GPU_ENTRY(branch_ranks);
  k.keep_per_thread.gpu = COOP_GPU_ENTRY(keep_per_thread);
  k.keep_aggregated.gpu = COOP_GPU_ENTRY(keep_aggregated);
}

}  // namespace coop::lessons::divergence_and_coalesced
