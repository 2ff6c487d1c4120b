// The split-barriers kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::split_barriers {

using SplitKernel = Kernel<const int*, int*, int*, int*>;  // in, out, produced, local

struct Kernels {
  SplitKernel block_split{"block_split", {}, nullptr};
  SplitKernel cluster_split{"cluster_split", {}, nullptr};          // sm_90+ on a GPU
  SplitKernel sync_inside_split{"sync_inside_split", {}, nullptr};  // emulator only
  SplitKernel reuse_after_wait{"reuse_after_wait", {}, nullptr};    // emulator only
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::split_barriers
