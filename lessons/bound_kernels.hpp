// A lesson's kernel table with both backends bound, built once on first use. Each lesson folder
// has bind_gpu (kernels.cu, compiled by nvcc) and bind_emu (kernels_emu.cpp, host compiler).
#pragma once

namespace coop::lessons {

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

}  // namespace coop::lessons
