// The thread grid's race marks: the picked race's two threads strongly, every thread of any
// reported race lightly, and a folded warp or block marked as strongly as its strongest thread.
#include <gtest/gtest.h>

#include <vector>

#include "visual/race_marks.hpp"

namespace coop::visual {
namespace {

Race race_between(uint32_t first_thread, uint32_t second_thread) {
  Race r;
  r.first.thread = first_thread;
  r.second.thread = second_thread;
  r.first.kind = AccessKind::Write;
  r.second.kind = AccessKind::Read;
  return r;
}

TEST(GridRaceMarks, NoRacesMarkNothing) {
  const GridRaceMarks marks = grid_race_marks({}, 0);
  EXPECT_TRUE(marks.empty());
  EXPECT_FALSE(marks.picked);
  EXPECT_EQ(marks.at(0), RaceMark::None);
  EXPECT_EQ(marks.in_range(0, 1024), RaceMark::None);
}

TEST(GridRaceMarks, EveryThreadOfEveryRaceIsMarkedOnceAndTheOthersAreNot) {
  const std::vector<Race> races = {race_between(31, 32), race_between(95, 96),
                                   race_between(32, 31)};
  const GridRaceMarks marks = grid_race_marks(races, -1);
  EXPECT_EQ(marks.in_race, (std::vector<uint32_t>{31, 32, 95, 96}));
  EXPECT_FALSE(marks.picked);
  for (uint32_t t = 0; t < 128; ++t) {
    const bool raced = t == 31 || t == 32 || t == 95 || t == 96;
    EXPECT_EQ(marks.at(t), raced ? RaceMark::InRace : RaceMark::None) << "thread " << t;
  }
}

TEST(GridRaceMarks, ThePickedRacesTwoThreadsAreMarkedAbove) {
  const std::vector<Race> races = {race_between(31, 32), race_between(95, 96)};
  const GridRaceMarks marks = grid_race_marks(races, 1);
  ASSERT_TRUE(marks.picked);
  EXPECT_EQ(marks.picked->first, 95u);
  EXPECT_EQ(marks.picked->second, 96u);
  EXPECT_EQ(marks.at(95), RaceMark::Picked);
  EXPECT_EQ(marks.at(96), RaceMark::Picked);
  EXPECT_EQ(marks.at(31), RaceMark::InRace);
  EXPECT_EQ(marks.at(32), RaceMark::InRace);
  EXPECT_EQ(marks.at(94), RaceMark::None);
}

TEST(GridRaceMarks, AnIndexOutsideTheListPicksNothing) {
  const std::vector<Race> races = {race_between(3, 4)};
  for (int picked : {-1, 1, 7}) {
    const GridRaceMarks marks = grid_race_marks(races, picked);
    EXPECT_FALSE(marks.picked) << picked;
    EXPECT_EQ(marks.at(3), RaceMark::InRace) << picked;
  }
}

// Folded warps and blocks: a stripe or square holding a marked thread carries its mark, the
// strongest when it holds several.
TEST(GridRaceMarks, ARangeTakesTheStrongestMarkOfItsThreads) {
  const std::vector<Race> races = {race_between(31, 32), race_between(70, 200)};
  const GridRaceMarks marks = grid_race_marks(races, 1);
  EXPECT_EQ(marks.in_range(0, 32), RaceMark::InRace);     // warp 0 holds 31
  EXPECT_EQ(marks.in_range(32, 64), RaceMark::InRace);    // warp 1 holds 32
  EXPECT_EQ(marks.in_range(64, 96), RaceMark::Picked);    // warp 2 holds 70
  EXPECT_EQ(marks.in_range(96, 192), RaceMark::None);     // nothing between
  EXPECT_EQ(marks.in_range(0, 128), RaceMark::Picked);    // a block of 128 holding 70
  EXPECT_EQ(marks.in_range(192, 256), RaceMark::Picked);  // and the one holding 200
  EXPECT_EQ(marks.in_range(40, 40), RaceMark::None);      // an empty range
}

}  // namespace
}  // namespace coop::visual
