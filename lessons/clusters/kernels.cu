#include "lessons/clusters/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/clusters/clusters.cuh"

namespace coop::lessons::clusters {

void bind_gpu(Kernels& k) {
  k.ring_exchange.gpu = COOP_GPU_ENTRY(ring_exchange);
  k.cluster_histogram.gpu = COOP_GPU_ENTRY(cluster_histogram);
}

}  // namespace coop::lessons::clusters
