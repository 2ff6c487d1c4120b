#include "lessons/block_reduce/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/block_reduce/block_reduce.cuh"

namespace coop::lessons::block_reduce {

void bind_gpu(Kernels& k) {
  k.reduce_block.gpu = COOP_GPU_ENTRY(reduce_block);
  k.reduce_tiles.gpu = COOP_GPU_ENTRY(reduce_tiles);
}

}  // namespace coop::lessons::block_reduce
