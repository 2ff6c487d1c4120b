#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::basics {

struct Kernels {
  Kernel<int*> racy_increment{"racy_increment", {}, nullptr};
  Kernel<int*, int*> atomic_increment{"atomic_increment", {}, nullptr};
  Kernel<int*> sync_in_branch{"sync_in_branch", {}, nullptr};
  Kernel<int*, int*, unsigned*, int*> tile_shuffles{"tile_shuffles", {}, nullptr};
  Kernel<int*> shared_per_block{"shared_per_block", {}, nullptr};
};

const Kernels& kernels();
void bind_gpu(Kernels& k);

}  // namespace coop::lessons::basics
