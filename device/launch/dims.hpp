// A CUDA-style 3D extent (grid, block or cluster dimensions).
#pragma once

#include <cstdint>
#include <string>

namespace coop {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;

  constexpr uint64_t count() const { return uint64_t(x) * y * z; }
  constexpr int rank() const { return z > 1 ? 3 : (y > 1 ? 2 : 1); }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
  // "256" or "16,16" or "8,8,4": the form the CLI accepts.
  std::string str() const {
    std::string s = std::to_string(x);
    if (y != 1 || z != 1) s += "," + std::to_string(y);
    if (z != 1) s += "," + std::to_string(z);
    return s;
  }
};

// Any three-sized value (CUDA's dim3 or uint3, the emulator's Dim3) as a Dim3.
template <class Dims>
constexpr Dim3 dims_of(const Dims& d) {
  return {unsigned(d.x), unsigned(d.y), unsigned(d.z)};
}

// A Dim3 as CUDA's dim3 or uint3 (a user program on the emulator has CUDA's own types).
template <class CudaDim3>
constexpr CudaDim3 to_cuda(const Dim3& d) {
  return CudaDim3{d.x, d.y, d.z};
}

// True if x * y * z * factor is larger than limit. Never wraps around, so it is safe on sizes read
// from a file or typed by a user (three 31-bit dimensions overflow 64 bits).
constexpr bool count_exceeds(const Dim3& d, uint64_t factor, uint64_t limit) {
  uint64_t n = factor;
  for (uint32_t v : {d.x, d.y, d.z}) {
    if (v != 0 && n > limit / v) return true;
    n *= v;
  }
  return n > limit;
}

}  // namespace coop
