// The synchronization-hazards kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::synchronization_hazards {

using SumKernel = Kernel<const int*, int*, int*>;

struct Kernels {
  Kernel<const int*, int*> three_spellings{"three_spellings", {}, nullptr};
  SumKernel half_block_fixed{"half_block_fixed", {}, nullptr};
  SumKernel half_block_deadlock{"half_block_deadlock", {}, nullptr};  // emulator only
  SumKernel partition_in_branch{"partition_in_branch", {}, nullptr};  // emulator only
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::synchronization_hazards
