#include "lessons/labeled_binary_stride/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/labeled_binary_stride/labeled_binary_stride.cuh"

namespace coop::lessons::labeled_binary_stride {

void bind_gpu(Kernels& k) {
  k.split_by_label.gpu = COOP_GPU_ENTRY(split_by_label);
}

}  // namespace coop::lessons::labeled_binary_stride
