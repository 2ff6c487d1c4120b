// The benchmark kernels on both backends.
#pragma once

#include "device/launch/kernel.hpp"

namespace coop::lessons::bench {

struct Kernels {
  Kernel<const float*, float*> staged_sum{"staged_sum", {}, nullptr};
  Kernel<const float*, float*> tree_sum_1024{"tree_sum_1024", {}, nullptr};
  Kernel<const float*, float*, unsigned> traced_grid_sum{"traced_grid_sum", {}, nullptr};
};

const Kernels& kernels();
void bind_gpu(Kernels& k);

}  // namespace coop::lessons::bench
