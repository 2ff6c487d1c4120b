#include "lessons/collectives/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/collectives/collectives.cuh"

namespace coop::lessons::collectives {

void bind_gpu(Kernels& k) {
  k.reduce_six_ways.gpu = COOP_GPU_ENTRY(reduce_six_ways);
  k.pack_runs.gpu = COOP_GPU_ENTRY(pack_runs);
  k.one_for_all.gpu = COOP_GPU_ENTRY(one_for_all);
  k.sum_hardware.gpu = COOP_GPU_ENTRY(sum_hardware);
  k.sum_shuffles.gpu = COOP_GPU_ENTRY(sum_shuffles);
  k.sum_wide.gpu = COOP_GPU_ENTRY(sum_wide);
}

}  // namespace coop::lessons::collectives
