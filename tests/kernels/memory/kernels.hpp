#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::memory {

struct Kernels {
  Kernel<const float*, float*> copy_consecutive{"copy_consecutive", {}, nullptr};
  Kernel<const float*, float*> copy_strided{"copy_strided", {}, nullptr};
  Kernel<float*, unsigned> tile_by_column{"tile_by_column", {}, nullptr};
  Kernel<int*> broadcast{"broadcast", {}, nullptr};
  Kernel<unsigned char*, short*, double*, int*, int*> sizes_and_copies{
      "sizes_and_copies", {}, nullptr};
};

const Kernels& kernels();
void bind_gpu(Kernels& k);

}  // namespace coop::lessons::memory
