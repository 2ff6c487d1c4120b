// The grid-sync kernel as both backends see it.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::grid_sync {

struct Kernels {
  Kernel<const float*, float*, float*, int> reduce_grid_sync{"reduce_grid_sync", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::grid_sync
