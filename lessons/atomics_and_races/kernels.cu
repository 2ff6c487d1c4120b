#include "lessons/atomics_and_races/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/atomics_and_races/atomics_and_races.cuh"

namespace coop::lessons::atomics_and_races {

void bind_gpu(Kernels& k) {
  k.racy_sum.gpu = COOP_GPU_ENTRY(racy_sum);
  k.racy_block_sum.gpu = COOP_GPU_ENTRY(racy_block_sum);
  k.atomic_sum.gpu = COOP_GPU_ENTRY(atomic_sum);
  k.staged_sum.gpu = COOP_GPU_ENTRY(staged_sum);
  k.spread_add.gpu = COOP_GPU_ENTRY(spread_add);
  k.count_both.gpu = COOP_GPU_ENTRY(count_both);
}

}  // namespace coop::lessons::atomics_and_races
