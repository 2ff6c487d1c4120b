#include "lessons/tiled_partitions/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/tiled_partitions/tiled_partitions.cuh"

namespace coop::lessons::tiled_partitions {

void bind_gpu(Kernels& k) {
  k.every_nth_prints.gpu = COOP_GPU_ENTRY(every_nth_prints);
  k.tiles_of_tiles.gpu = COOP_GPU_ENTRY(tiles_of_tiles);
}

}  // namespace coop::lessons::tiled_partitions
