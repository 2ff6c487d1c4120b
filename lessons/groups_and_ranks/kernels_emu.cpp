#include "lessons/groups_and_ranks/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// groups_and_ranks.cuh, lowered for the emulator at build time.
#include "groups_and_ranks.emu.cuh"

namespace coop::lessons::groups_and_ranks {

void bind_emu(Kernels& k) {
  k.where_am_i.emu = &emulated::groups_and_ranks::where_am_i;
  k.pass_handles.emu = &emulated::groups_and_ranks::pass_handles;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::groups_and_ranks
