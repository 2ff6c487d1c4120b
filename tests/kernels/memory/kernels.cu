#include "tests/kernels/memory/kernels.hpp"

#include "device/gpu/module.cuh"
#include "tests/kernels/memory/memory.cuh"

namespace coop::lessons::memory {

void bind_gpu(Kernels& k) {
  k.copy_consecutive.gpu = COOP_GPU_ENTRY(copy_consecutive);
  k.copy_strided.gpu = COOP_GPU_ENTRY(copy_strided);
  k.tile_by_column.gpu = COOP_GPU_ENTRY(tile_by_column);
  k.broadcast.gpu = COOP_GPU_ENTRY(broadcast);
  k.sizes_and_copies.gpu = COOP_GPU_ENTRY(sizes_and_copies);
}

}  // namespace coop::lessons::memory
