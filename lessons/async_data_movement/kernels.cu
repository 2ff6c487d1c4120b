#include "lessons/async_data_movement/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/async_data_movement/async_data_movement.cuh"

namespace coop::lessons::async_data_movement {

void bind_gpu(Kernels& k) {
  k.two_copies.gpu = COOP_GPU_ENTRY(two_copies);
  k.pipeline.gpu = COOP_GPU_ENTRY(pipeline);
}

}  // namespace coop::lessons::async_data_movement
