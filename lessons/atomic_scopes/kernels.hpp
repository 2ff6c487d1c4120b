// The atomic-scopes kernels as both backends see them.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::atomic_scopes {

using MessageKernel = Kernel<int*, int*, int*, int>;

struct Kernels {
  Kernel<int*, int*, int*> scoped_counts{"scoped_counts", {}, nullptr};
  Kernel<int, const float*, float*> sum_reduction{"sum_reduction", {}, nullptr};
  MessageKernel message_relaxed{"message_relaxed", {}, nullptr};
  MessageKernel message_release_acquire{"message_release_acquire", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::atomic_scopes
