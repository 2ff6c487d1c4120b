#include "lessons/groups_and_ranks/kernels.hpp"

#include "device/gpu/module.cuh"
#include "lessons/groups_and_ranks/groups_and_ranks.cuh"

namespace coop::lessons::groups_and_ranks {

void bind_gpu(Kernels& k) {
  k.where_am_i.gpu = COOP_GPU_ENTRY(where_am_i);
  k.pass_handles.gpu = COOP_GPU_ENTRY(pass_handles);
}

}  // namespace coop::lessons::groups_and_ranks
