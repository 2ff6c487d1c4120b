// The atomics-and-races kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::atomics_and_races {

struct Kernels {
  Kernel<const int*, int*> racy_sum{"racy_sum", {}, nullptr};
  Kernel<const int*, int*> racy_block_sum{"racy_block_sum", {}, nullptr};
  Kernel<const int*, int*, int*> atomic_sum{"atomic_sum", {}, nullptr};
  Kernel<const int*, int*, int> staged_sum{"staged_sum", {}, nullptr};
  Kernel<int*, int> spread_add{"spread_add", {}, nullptr};
  Kernel<float*, unsigned*> count_both{"count_both", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::atomics_and_races
