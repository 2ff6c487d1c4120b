// Numbers as typed into the app's fields: refused with the limit named, never wrapped or clamped.
#include <gtest/gtest.h>

#include "visual/field_text.hpp"

namespace coop::visual {
namespace {

TEST(FieldText, WholeNumbersWithinTheirRange) {
  EXPECT_EQ(*parse_whole("42", "x", 0, 100), 42);
  EXPECT_EQ(*parse_whole("  7 ", "x", 0, 100), 7);
  EXPECT_EQ(*parse_whole("-1", "carveout", -1, 100), -1);
  struct Case {
    const char* text;
    const char* says;
  } refused[] = {
      {"-1", "-1 is too small: seed must be a whole number from 0 to 100"},
      {"abc", "'abc' is not a whole number: seed must be a whole number from 0 to 100"},
      {"1e3", "'1e3' is not a whole number"},
      {"4.5", "'4.5' is not a whole number"},
      {"", "empty: seed must be"},
      {"101", "101 is too large: seed must be a whole number from 0 to 100"},
      {"99999999999999999999999", "is too large: seed must be a whole number from 0 to 100"},
  };
  for (const Case& c : refused) {
    Result<int64_t> v = parse_whole(c.text, "seed", 0, 100);
    ASSERT_FALSE(v.ok()) << "'" << c.text << "' was taken as " << *v;
    EXPECT_NE(v.message().find(c.says), std::string::npos) << c.text << ": " << v.message();
  }
}

TEST(FieldText, DimsWithPerAxisLimitsAndATotal) {
  const Dim3 block_max{1024, 1024, 64};
  EXPECT_EQ(*parse_dims("256", "block", block_max, 1024), (Dim3{256, 1, 1}));
  EXPECT_EQ(*parse_dims("8, 4, 2", "block", block_max, 1024), (Dim3{8, 4, 2}));
  EXPECT_EQ(dims_text({8, 4, 2}), "8,4,2");
  EXPECT_EQ(dims_text({256, 1, 1}), "256");
  EXPECT_EQ(dims_text({16, 4, 1}), "16,4");
  struct Case {
    const char* text;
    const char* says;
  } refused[] = {
      {"-1", "block x must be a whole number from 1 to 1024"},
      {"0", "0 is too small"},
      {"abc", "'abc' is not a whole number"},
      {"8,4,2,1", "has more than 3 parts"},
      {"1,1,65", "block z must be a whole number from 1 to 64"},
      {"2048", "2048 is too large"},
      {"64,32", "block 64x32x1 has 2048 in all, more than 1024"},
      {"4294967296", "is too large"},
      {"8,,2", "empty"},
  };
  for (const Case& c : refused) {
    Result<Dim3> d = parse_dims(c.text, "block", block_max, 1024);
    ASSERT_FALSE(d.ok()) << "'" << c.text << "' was taken";
    EXPECT_NE(d.message().find(c.says), std::string::npos) << c.text << ": " << d.message();
  }
}

}  // namespace
}  // namespace coop::visual
