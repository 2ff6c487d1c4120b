#include "lessons/block_scheduling/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/block_scheduling/block_scheduling.cuh"

namespace coop::lessons::block_scheduling {

void bind_gpu(Kernels& k) { k.timed_blocks.gpu = COOP_GPU_ENTRY(timed_blocks); }

}  // namespace coop::lessons::block_scheduling
