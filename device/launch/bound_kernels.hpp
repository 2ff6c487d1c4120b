// A kernel folder's handles (a struct of Kernel<...>) with both backends bound, built on first
// use. The kernels_emu.cpp generated for a kernel folder (device/lowering/kernel_bindings.hpp)
// defines its accessor as
//   const Kernels& kernels() { return bound_kernels(bind_gpu, bind_emu); }
#pragma once

namespace coop {

template <class Kernels>
const Kernels& bound_kernels(void (*bind_gpu)(Kernels&), void (*bind_emu)(Kernels&)) {
  static const Kernels bound = [&] {
    Kernels k;
    bind_gpu(k);
    bind_emu(k);
    return k;
  }();
  return bound;
}

}  // namespace coop
