#include "lessons/grid_sync/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/grid_sync/grid_sync.cuh"

namespace coop::lessons::grid_sync {

void bind_gpu(Kernels& k) {
  k.reduce_grid_sync.gpu = COOP_GPU_ENTRY(reduce_grid_sync);
}

}  // namespace coop::lessons::grid_sync
