// CUDA's vector types for emulated code (char1 .. double4, with make_char1 .. make_double4):
// the same members, sizes and alignments as nvcc's, so that a kernel's
// reinterpret_cast<const float4*> or a 16-byte uint4 copy moves the same bytes on both backends.
// The rule nvcc follows: a 1-vector aligns as its element, a 2-vector to twice that, a 3-vector
// as its element, a 4-vector to four times that but at most 16 bytes.
#pragma once

#include <algorithm>
#include <cstddef>

#include "device/launch/dims.hpp"

// NOLINTBEGIN: CUDA's names, in CUDA's (global) namespace
#define COOP_VECTOR_TYPES_124(T, name)                               \
  struct alignas(sizeof(T)) name##1 {                                \
    T x;                                                             \
  };                                                                 \
  struct alignas(2 * sizeof(T)) name##2 {                            \
    T x, y;                                                          \
  };                                                                 \
  struct alignas(std::min<std::size_t>(4 * sizeof(T), 16)) name##4 { \
    T x, y, z, w;                                                    \
  };                                                                 \
  inline constexpr name##1 make_##name##1(T x) {                     \
    return {x};                                                      \
  }                                                                  \
  inline constexpr name##2 make_##name##2(T x, T y) {                \
    return {x, y};                                                   \
  }                                                                  \
  inline constexpr name##4 make_##name##4(T x, T y, T z, T w) {      \
    return {x, y, z, w};                                             \
  }
#define COOP_VECTOR_TYPE_3(T, name)                        \
  struct alignas(sizeof(T)) name##3 {                      \
    T x, y, z;                                             \
  };                                                       \
  inline constexpr name##3 make_##name##3(T x, T y, T z) { \
    return {x, y, z};                                      \
  }
#define COOP_VECTOR_TYPES(T, name) COOP_VECTOR_TYPES_124(T, name) COOP_VECTOR_TYPE_3(T, name)

COOP_VECTOR_TYPES(signed char, char)
COOP_VECTOR_TYPES(unsigned char, uchar)
COOP_VECTOR_TYPES(short, short)
COOP_VECTOR_TYPES(unsigned short, ushort)
COOP_VECTOR_TYPES(int, int)
COOP_VECTOR_TYPES_124(unsigned int, uint)
COOP_VECTOR_TYPES(long, long)
COOP_VECTOR_TYPES(unsigned long, ulong)
COOP_VECTOR_TYPES(long long, longlong)
COOP_VECTOR_TYPES(unsigned long long, ulonglong)
COOP_VECTOR_TYPES(float, float)
COOP_VECTOR_TYPES(double, double)
#undef COOP_VECTOR_TYPES
#undef COOP_VECTOR_TYPE_3
#undef COOP_VECTOR_TYPES_124

// uint3 is the built-in variables' type (threadIdx, blockIdx): the emulator's Dim3, which has
// uint3's three unsigned members, size and alignment.
using uint3 = ::coop::Dim3;
inline constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
  return {x, y, z};
}
static_assert(sizeof(uint3) == 12 && alignof(uint3) == 4);
// NOLINTEND
