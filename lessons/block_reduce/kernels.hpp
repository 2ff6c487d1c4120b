// The block-reduce kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::block_reduce {

struct Kernels {
  Kernel<const float*, float*, float*> reduce_block{"reduce_block", {}, nullptr};
  Kernel<const float*, float*, float*> reduce_tiles{"reduce_tiles", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::block_reduce
