// Counts abbreviated for badges (the code view's threads-per-line pill), values, and events in
// words.
#include <gtest/gtest.h>

#include <cstring>

#include "visual/event_text.hpp"

namespace coop::visual {
namespace {

TEST(FormatValue, FloatsShowWholeNumbersInFullAndOthersWithSevenDigits) {
  auto f32 = [](float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return format_value(bits, ValueType::F32);
  };
  EXPECT_EQ(f32(16777216.0f), "16777216");  // 2^24, where a float counter stops
  EXPECT_EQ(f32(16777214.0f), "16777214");
  EXPECT_EQ(f32(-3.0f), "-3");
  EXPECT_EQ(f32(0.25f), "0.25");
  EXPECT_EQ(f32(1.0f / 3.0f), "0.3333333");
  EXPECT_EQ(f32(3.0e9f), "3e+09");
}

TEST(ShortCount, FitsFourCharactersAndRoundsToTheNearestUnit) {
  EXPECT_EQ(short_count(0), "0");
  EXPECT_EQ(short_count(1024), "1024");
  EXPECT_EQ(short_count(9999), "9999");
  EXPECT_EQ(short_count(10000), "10K");
  EXPECT_EQ(short_count(65536), "66K");
  EXPECT_EQ(short_count(404976), "405K");
  EXPECT_EQ(short_count(999499), "999K");
  EXPECT_EQ(short_count(999500), "1.0M");
  EXPECT_EQ(short_count(1234567), "1.2M");
  EXPECT_EQ(short_count(16777216), "17M");
  EXPECT_EQ(short_count(uint64_t(4300000000)), "4.3G");
  for (uint64_t n = 1; n < UINT64_MAX / 3; n = n * 3 + 1) EXPECT_LE(short_count(n).size(), 4u) << n;
}

// A warp intrinsic's group id is its lane mask: __syncwarp reads as the call with its mask, not as
// a barrier of "warp 4294967295", also when it never completes.
TEST(DescribeEvent, SyncwarpIsNamedWithItsMask) {
  Event e{};
  e.kind = EventKind::Barrier;
  e.group_kind = GroupKind::Warp;
  e.group_id = 0xffffffffu;
  e.extra = 2;
  const TraceHeader header;
  EXPECT_EQ(describe_event(e, header, 0).rfind("__syncwarp(0xffffffff), phase 2", 0), 0u)
      << describe_event(e, header, 0);
  e.group_id = 0x0000ffffu;
  e.flags = kFlagStuck;
  EXPECT_EQ(describe_event(e, header, 0),
            "stuck in __syncwarp(0x0000ffff): it can never complete (deadlock)");
  e.kind = EventKind::Collective;
  e.op = Op::Shfl;
  EXPECT_NE(describe_event(e, header, 0).find("on lanes 0x0000ffff"), std::string::npos)
      << describe_event(e, header, 0);
}

}  // namespace
}  // namespace coop::visual
