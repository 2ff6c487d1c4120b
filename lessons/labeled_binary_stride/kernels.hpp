// The labeled-binary-stride kernel as both backends see it.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::labeled_binary_stride {

struct Kernels {
  Kernel<const int*, int*, int> split_by_label{"split_by_label", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::labeled_binary_stride
