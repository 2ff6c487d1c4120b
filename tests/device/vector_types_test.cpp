// The emulator's CUDA vector types have nvcc's sizes and alignments (the table is what nvcc 13
// gives on x86-64 Linux), so that a uint4 or float4 copy moves the same bytes on both backends.
#include <gtest/gtest.h>

#include "device/emu/vector_types.hpp"

namespace {

struct Layout {
  const char* name;
  size_t size, align;
};

#define COOP_LAYOUTS(b)                                                                     \
  Layout{#b "1", sizeof(b##1), alignof(b##1)}, Layout{#b "2", sizeof(b##2), alignof(b##2)}, \
      Layout{#b "3", sizeof(b##3), alignof(b##3)}, Layout {                                 \
#b "4", sizeof(b##4), alignof(b##4)                                                     \
  }

TEST(VectorTypes, SizesAndAlignmentsAreNvccs) {
  const Layout ours[] = {COOP_LAYOUTS(char),      COOP_LAYOUTS(uchar), COOP_LAYOUTS(short),
                         COOP_LAYOUTS(ushort),    COOP_LAYOUTS(int),   COOP_LAYOUTS(uint),
                         COOP_LAYOUTS(long),      COOP_LAYOUTS(ulong), COOP_LAYOUTS(longlong),
                         COOP_LAYOUTS(ulonglong), COOP_LAYOUTS(float), COOP_LAYOUTS(double)};
  // sizeof and alignof of 1-, 2-, 3- and 4-vectors of 1-, 2-, 4- and 8-byte elements, from nvcc.
  const size_t nvcc[4][4][2] = {{{1, 1}, {2, 2}, {3, 1}, {4, 4}},
                                {{2, 2}, {4, 4}, {6, 2}, {8, 8}},
                                {{4, 4}, {8, 8}, {12, 4}, {16, 16}},
                                {{8, 8}, {16, 16}, {24, 8}, {32, 16}}};
  const int element_bytes_log2[] = {0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 2, 3};
  for (int type = 0; type < 12; ++type)
    for (int n = 0; n < 4; ++n) {
      const Layout& l = ours[type * 4 + n];
      EXPECT_EQ(l.size, nvcc[element_bytes_log2[type]][n][0]) << l.name;
      EXPECT_EQ(l.align, nvcc[element_bytes_log2[type]][n][1]) << l.name;
    }
}

TEST(VectorTypes, MakeFunctionsFillEveryMember) {
  constexpr uint4 u = make_uint4(1, 2, 3, 4);
  static_assert(u.x == 1 && u.y == 2 && u.z == 3 && u.w == 4);
  constexpr uint3 t = make_uint3(5, 6, 7);
  static_assert(t.x == 5 && t.y == 6 && t.z == 7);
  constexpr double2 d = make_double2(0.5, 1.5);
  EXPECT_EQ(d.x + d.y, 2.0);
  constexpr char4 c = make_char4(-1, 2, -3, 4);
  EXPECT_EQ(c.x + c.y + c.z + c.w, 2);
}

}  // namespace
