// The occupancy lesson's kernels as both backends see them.
#pragma once

#include <cstdint>

#include "device/launch/kernel.hpp"

namespace coop::lessons::occupancy {

struct Kernels {
  Kernel<unsigned*, unsigned*, unsigned, uint32_t*, int> count_resident{
      "count_resident", {}, nullptr};
  Kernel<const uint32_t*, uint32_t*, int> many_live_values{"many_live_values", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::occupancy
