#include "lessons/warp_collectives/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/warp_collectives/warp_collectives.cuh"

namespace coop::lessons::warp_collectives {

void bind_gpu(Kernels& k) {
  k.lanes_move.gpu = COOP_GPU_ENTRY(lanes_move);
  k.warp_sum.gpu = COOP_GPU_ENTRY(warp_sum);
}

}  // namespace coop::lessons::warp_collectives
