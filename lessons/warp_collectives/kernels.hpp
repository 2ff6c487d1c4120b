// The warp-collectives kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::warp_collectives {

struct Kernels {
  Kernel<const int*, int*, int, int, int> lanes_move{"lanes_move", {}, nullptr};
  Kernel<const int*, int*, int*> warp_sum{"warp_sum", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::warp_collectives
