// The block-scheduling lesson's kernel as both backends see it.
#pragma once

#include <cstdint>

#include "device/launch/kernel.hpp"

namespace coop::lessons::block_scheduling {

struct Kernels {
  Kernel<unsigned*, unsigned long long*, unsigned long long*, uint32_t*, int> timed_blocks{
      "timed_blocks", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::block_scheduling
