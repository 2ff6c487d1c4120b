#include "lessons/atomic_scopes/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/atomic_scopes/atomic_scopes.cuh"

namespace coop::lessons::atomic_scopes {

void bind_gpu(Kernels& k) {
  k.scoped_counts.gpu = COOP_GPU_ENTRY(scoped_counts);
  k.sum_reduction.gpu = COOP_GPU_ENTRY(sum_reduction);
  k.message_relaxed.gpu = COOP_GPU_ENTRY(message_relaxed);
  k.message_release_acquire.gpu = COOP_GPU_ENTRY(message_release_acquire);
}

}  // namespace coop::lessons::atomic_scopes
