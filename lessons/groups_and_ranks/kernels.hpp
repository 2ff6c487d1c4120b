// The groups-and-ranks kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::groups_and_ranks {

struct Kernels {
  Kernel<int*> where_am_i{"where_am_i", {}, nullptr};
  Kernel<const int*, int*, int> pass_handles{"pass_handles", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::groups_and_ranks
