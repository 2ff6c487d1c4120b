// The collectives kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::collectives {

struct Kernels {
  Kernel<const int*, int*> reduce_six_ways{"reduce_six_ways", {}, nullptr};
  Kernel<const int*, int*, int*, int*> pack_runs{"pack_runs", {}, nullptr};
  Kernel<int*, int*, int*> one_for_all{"one_for_all", {}, nullptr};
  Kernel<const unsigned*, unsigned*, int> sum_hardware{"sum_hardware", {}, nullptr};
  Kernel<const unsigned*, unsigned*, int> sum_shuffles{"sum_shuffles", {}, nullptr};
  Kernel<const unsigned*, unsigned*, int> sum_wide{"sum_wide", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::collectives
