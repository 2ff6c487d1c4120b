// Counts abbreviated for badges (the code view's threads-per-line pill).
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

}  // namespace
}  // namespace coop::visual
