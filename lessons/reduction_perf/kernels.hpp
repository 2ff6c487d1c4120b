// The reduction-performance kernels as both backends see them (reduction_perf.cuh).
#pragma once

#include <cstddef>

#include "device/launch/kernel.hpp"

namespace coop::lessons::reduction_perf {

// input, n, total: one atomicAdd per block into *total (zero it first).
using AtomicKernel = Kernel<const float*, size_t, float*>;
// input, n, partials, total: cooperative launch; writes *total.
using GridSyncKernel = Kernel<const float*, size_t, float*, float*>;
// input, n, partials, blocks_done, total: the last block writes *total.
using LastBlockKernel = Kernel<const float*, size_t, float*, unsigned*, float*>;

struct Kernels {
  AtomicKernel seed_atomic{"seed_atomic", {}, nullptr};
  AtomicKernel seed_group{"seed_group", {}, nullptr};
  GridSyncKernel seed_grid_sync{"seed_grid_sync", {}, nullptr};
  GridSyncKernel seed_tile32{"seed_tile32", {}, nullptr};
  AtomicKernel interleaved_divergent{"interleaved_divergent", {}, nullptr};
  AtomicKernel sequential{"sequential", {}, nullptr};
  AtomicKernel first_add{"first_add", {}, nullptr};
  AtomicKernel last_warp_shuffles{"last_warp_shuffles", {}, nullptr};
  AtomicKernel grid_stride{"grid_stride", {}, nullptr};
  AtomicKernel tile_reduce{"tile_reduce", {}, nullptr};
  AtomicKernel vector_loads{"vector_loads", {}, nullptr};
  LastBlockKernel tuned{"tuned", {}, nullptr};
};

void bind_gpu(Kernels& k);  // kernels.cu
void bind_emu(Kernels& k);  // kernels_emu.cpp
const Kernels& kernels();   // both backends bound

}  // namespace coop::lessons::reduction_perf
