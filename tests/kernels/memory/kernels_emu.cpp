#include "tests/kernels/memory/kernels.hpp"

#include "memory.emu.cuh"

namespace coop::lessons::memory {

const Kernels& kernels() {
  static const Kernels bound = [] {
    Kernels k;
    bind_gpu(k);
    namespace e = emulated::memory;
    k.copy_consecutive.emu = &e::copy_consecutive;
    k.copy_strided.emu = &e::copy_strided;
    k.tile_by_column.emu = &e::tile_by_column;
    k.broadcast.emu = &e::broadcast;
    k.sizes_and_copies.emu = &e::sizes_and_copies;
    return k;
  }();
  return bound;
}

}  // namespace coop::lessons::memory
