// Which lane a raw warp shuffle (__shfl_sync and its up, down and xor forms) reads, as CUDA
// defines it within segments of `width` lanes: a source outside the caller's segment leaves the
// caller its own value. One formula for both backends: the emulator performs the shuffle with it
// and the GPU recorder names the source with it, so their traces agree.
#pragma once

#include <cstdint>

#include "device/trace/event.hpp"

namespace coop {

COOP_HD inline uint32_t shuffle_source(Op op, uint32_t lane, uint32_t arg, uint32_t width) {
  const uint32_t base = lane & ~(width - 1);
  switch (op) {
    case Op::ShflDown:
      return lane - base + arg < width ? lane + arg : lane;
    case Op::ShflUp:
      return lane - base >= arg ? lane - arg : lane;
    case Op::ShflXor: {
      const uint32_t x = lane ^ arg;
      return (x & ~(width - 1)) == base ? x : lane;
    }
    default:
      return base + (arg & (width - 1));  // Op::Shfl: a lane of the segment
  }
}

}  // namespace coop
