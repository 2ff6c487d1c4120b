// Moments as lesson steps name them: the grammar, its errors, and which events match.
#include <gtest/gtest.h>

#include "device/trace/moment.hpp"

namespace coop {
namespace {

TEST(Moment, ParsesEveryFormAndWritesItBack) {
  for (const char* text :
       {"first collective", "last atomic", "arrived barrier in block 1 phase 2", "3rd store",
        "2nd barrier_wait group tile", "first load of thread 37", "first collective in warp 0",
        "21st group_create anywhere", "end"}) {
    Result<MomentSpec> m = parse_moment(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.message();
    EXPECT_EQ(to_string(*m), text);
  }
  const MomentSpec m = *parse_moment("arrived barrier in block 1 in warp 2 phase 3 group tile");
  EXPECT_EQ(m.which, MomentSpec::Which::Arrived);
  EXPECT_EQ(m.kind, EventKind::Barrier);
  EXPECT_EQ(m.block, 1);
  EXPECT_EQ(m.warp, 2);
  EXPECT_EQ(m.phase, 3);
  EXPECT_EQ(m.group, GroupKind::Tile);
  EXPECT_EQ(parse_moment("2nd store")->nth, 2u);
}

TEST(Moment, RefusesWhatItCannotFindAndSaysWhy) {
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {"", "empty"},
      {"soon store", "is not first, last"},
      {"first", "an event kind must follow"},
      {"first barier", "is not an event kind"},
      {"arrived atomic", "'arrived' needs barrier or barrier_wait"},
      {"first store in block", "needs a number"},
      {"first store in block -1", "needs a number"},
      {"first store phase x", "needs a number"},
      {"first store group tiles", "needs a group kind"},
      {"first store nearby", "is not a filter"},
      {"end now", "'end' stands alone"},
      {"0th store", "is not first, last"},
  };
  for (const Case& c : cases) {
    Result<MomentSpec> m = parse_moment(c.text);
    ASSERT_FALSE(m.ok()) << "'" << c.text << "' was accepted";
    EXPECT_NE(m.message().find(c.says), std::string::npos) << c.text << ": " << m.message();
  }
}

TEST(Moment, MatchesKindFiltersAndLines) {
  Event e{};
  e.kind = EventKind::Collective;
  e.thread = 70;  // block 1, warp 0 of 64-thread blocks
  e.line = 12;
  e.group_kind = GroupKind::Tile;
  const std::vector<int> lines = {12, 13};
  EXPECT_TRUE(parse_moment("first collective")->matches(e, 64, lines));
  EXPECT_TRUE(parse_moment("first collective in block 1 in warp 0")->matches(e, 64, lines));
  EXPECT_FALSE(parse_moment("first collective in block 0")->matches(e, 64, lines));
  EXPECT_FALSE(parse_moment("first collective in warp 1")->matches(e, 64, lines));
  EXPECT_FALSE(parse_moment("first collective group block")->matches(e, 64, lines));
  EXPECT_FALSE(parse_moment("first atomic")->matches(e, 64, lines));
  const std::vector<int> other = {40};
  EXPECT_FALSE(parse_moment("first collective")->matches(e, 64, other));
  EXPECT_TRUE(parse_moment("first collective anywhere")->matches(e, 64, other));
  EXPECT_TRUE(parse_moment("first collective of thread 70")->matches(e, 64, lines));
  EXPECT_FALSE(parse_moment("first collective of thread 71")->matches(e, 64, lines));
}

}  // namespace
}  // namespace coop
