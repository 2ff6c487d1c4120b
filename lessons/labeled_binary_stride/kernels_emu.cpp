#include "lessons/labeled_binary_stride/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// labeled_binary_stride.cuh, lowered for the emulator at build time (namespace
// lessons::emulated::...).
#include "labeled_binary_stride.emu.cuh"

namespace coop::lessons::labeled_binary_stride {

void bind_emu(Kernels& k) {
  k.split_by_label.emu = &emulated::labeled_binary_stride::split_by_label;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::labeled_binary_stride
