#include "lessons/occupancy/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/occupancy/occupancy.cuh"

namespace coop::lessons::occupancy {

void bind_gpu(Kernels& k) {
  k.count_resident.gpu = COOP_GPU_ENTRY(count_resident);
  k.many_live_values.gpu = COOP_GPU_ENTRY(many_live_values);
}

}  // namespace coop::lessons::occupancy
