// The async-data-movement kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::async_data_movement {

struct Kernels {
  Kernel<const float*, float*> two_copies{"two_copies", {}, nullptr};
  Kernel<const float*, float*, int, int> pipeline{"pipeline", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::async_data_movement
