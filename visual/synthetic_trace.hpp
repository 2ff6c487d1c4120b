// Traces made up in code, shaped like a real lesson's: for the visual demo window, the frame
// benchmark and the view tests (no kernel, no emulator needed).
#pragma once

#include <cstdint>

#include "device/trace/trace.hpp"

namespace coop::visual {

struct SyntheticTraceSpec {
  uint32_t blocks = 8;
  uint32_t block_threads = 128;  // multiple of 32
  uint32_t rounds = 4;           // barrier rounds (two sync() each) before the warp shuffles
  bool racy_counter = true;      // lane 0 of each tile also does an unprotected load + store
};

// A block reduction: every thread creates its block and 32-thread tile, loads its input, takes
// `rounds` two-barrier rounds, reduces its tile with five shfl_down, and lane 0 of each tile adds
// the tile's sum to `total` with atomicAdd (and, if racy_counter, bumps `count` without an
// atomic, so updates get lost). About 16 events per thread: 65,536 threads give ~1 M events.
// Blocks interleave on the logical clock as on the emulator. Deterministic.
Trace make_synthetic_trace(const SyntheticTraceSpec& spec);

}  // namespace coop::visual
