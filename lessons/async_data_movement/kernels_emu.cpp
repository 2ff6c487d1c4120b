#include "lessons/async_data_movement/kernels.hpp"

#include "device/launch/bound_kernels.hpp"

// async_data_movement.cuh, lowered for the emulator at build time.
#include "async_data_movement.emu.cuh"

namespace coop::lessons::async_data_movement {

void bind_emu(Kernels& k) {
  k.two_copies.emu = &emulated::async_data_movement::two_copies;
  k.pipeline.emu = &emulated::async_data_movement::pipeline;
}

const Kernels& kernels() {
  return bound_kernels(bind_gpu, bind_emu);
}

}  // namespace coop::lessons::async_data_movement
