#include "tests/kernels/basics/kernels.hpp"

#include "device/gpu/module.cuh"
#include "tests/kernels/basics/basics.cuh"

namespace coop::lessons::basics {

void bind_gpu(Kernels& k) {
  k.racy_increment.gpu = COOP_GPU_ENTRY(racy_increment);
  k.atomic_increment.gpu = COOP_GPU_ENTRY(atomic_increment);
  k.sync_in_branch.gpu = COOP_GPU_ENTRY(sync_in_branch);
  k.tile_shuffles.gpu = COOP_GPU_ENTRY(tile_shuffles);
  k.shared_per_block.gpu = COOP_GPU_ENTRY(shared_per_block);
}

}  // namespace coop::lessons::basics
