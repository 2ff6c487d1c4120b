// The divergence-and-coalesced kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::divergence_and_coalesced {

using KeepKernel = Kernel<const int*, int, int*, int*>;

struct Kernels {
  Kernel<const int*, int, int*> branch_ranks{"branch_ranks", {}, nullptr};
  KeepKernel keep_per_thread{"keep_per_thread", {}, nullptr};
  KeepKernel keep_aggregated{"keep_aggregated", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::divergence_and_coalesced
