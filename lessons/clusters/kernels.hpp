// The cluster kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::clusters {

struct Kernels {
  Kernel<const int*, int*, int*> ring_exchange{"ring_exchange", {}, nullptr};
  Kernel<const int*, int*, int> cluster_histogram{"cluster_histogram", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::clusters
