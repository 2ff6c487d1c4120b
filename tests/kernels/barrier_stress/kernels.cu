#include "tests/kernels/barrier_stress/kernels.hpp"

#include "device/gpu/module.cuh"
#include "tests/kernels/barrier_stress/barrier_stress.cuh"

namespace coop::lessons::barrier_stress {

void bind_gpu(Kernels& k) {
  k.uneven_block.gpu = COOP_GPU_ENTRY(uneven_block);
  k.uneven_grid.gpu = COOP_GPU_ENTRY(uneven_grid);
}

}  // namespace coop::lessons::barrier_stress
