#include "lessons/synchronization_hazards/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/synchronization_hazards/synchronization_hazards.cuh"

namespace coop::lessons::synchronization_hazards {

// The hazard kernels are built for the GPU too (they are valid CUDA), but the lesson refuses
// to launch them there: they would hang or misbehave instead of reporting.
void bind_gpu(Kernels& k) {
  k.three_spellings.gpu = COOP_GPU_ENTRY(three_spellings);
  k.half_block_fixed.gpu = COOP_GPU_ENTRY(half_block_fixed);
  k.half_block_deadlock.gpu = COOP_GPU_ENTRY(half_block_deadlock);
  k.partition_in_branch.gpu = COOP_GPU_ENTRY(partition_in_branch);
}

}  // namespace coop::lessons::synchronization_hazards
