#pragma once

#include <cstdint>

#include "device/launch/executor.hpp"
#include "device/launch/kernel.hpp"

namespace coop::lessons::barrier_stress {

struct Kernels {
  Kernel<const int*, uint32_t*, int, int> uneven_block{"uneven_block", {}, nullptr};
  Kernel<uint32_t*, int, int> uneven_grid{"uneven_grid", {}, nullptr};
};

const Kernels& kernels();
void bind_gpu(Kernels& k);

// Runs uneven_block on `exec` (inputs 0, 1, 2, ... to copy) and leaves its trace in `trace`.
Status run_uneven_block(Executor& exec, const LaunchConfig& c, int rounds, int work, Trace& trace);

}  // namespace coop::lessons::barrier_stress
