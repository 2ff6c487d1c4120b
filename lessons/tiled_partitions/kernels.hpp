// The tiled-partitions kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::tiled_partitions {

struct Kernels {
  Kernel<int*, int*, int> every_nth_prints{"every_nth_prints", {}, nullptr};
  Kernel<int*> tiles_of_tiles{"tiles_of_tiles", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::tiled_partitions
