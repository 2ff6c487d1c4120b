// The block-schedule model: slots filled as blocks free them, overlaps counted, and GPU
// timestamps kept to the nanosecond.
#include <gtest/gtest.h>

#include <vector>

#include "device/occupancy/block_schedule.hpp"

namespace coop {
namespace {

TEST(BlockScheduleModel, FillsSlotsAsTheyFree) {
  // 2 SMs x 2 slots, 6 blocks: durations 1, 1, 3, 3, 1, 1.
  const double durations[] = {1, 1, 3, 3, 1, 1};
  const BlockSchedule s = model_block_schedule(2, 2, durations);
  ASSERT_EQ(s.blocks.size(), 6u);
  EXPECT_EQ(s.blocks[0].sm, 0u);  // first wave spreads: 0, 1, 0, 1
  EXPECT_EQ(s.blocks[1].sm, 1u);
  EXPECT_EQ(s.blocks[2].sm, 0u);
  EXPECT_EQ(s.blocks[3].sm, 1u);
  EXPECT_DOUBLE_EQ(s.blocks[4].start, 1);  // takes block 0's slot when it frees
  EXPECT_EQ(s.blocks[4].sm, 0u);
  EXPECT_DOUBLE_EQ(s.blocks[5].start, 1);
  EXPECT_EQ(s.blocks[5].sm, 1u);
  EXPECT_DOUBLE_EQ(s.makespan(), 3);
  EXPECT_EQ(peak_resident_per_sm(s), (std::vector<int>{2, 2}));
}

TEST(BlockScheduleModel, PeakCountsOverlapsOnly) {
  BlockSchedule s;
  s.sm_count = 1;
  s.blocks = {{0, 0, 0, 10}, {1, 0, 10, 20}, {2, 0, 5, 15}};
  EXPECT_EQ(peak_resident_per_sm(s), std::vector<int>{2});  // touching ends do not overlap
  // Drawing rows: block 1 reuses block 0's row, block 2 overlaps both and needs a second one.
  EXPECT_EQ(slots_of_blocks(s), (std::vector<uint32_t>{0, 0, 1}));
}

TEST(BlockSchedule, GlobaltimerStampsKeepTheirNanoseconds) {
  // Two blocks on one SM, the second starting 1 ns after the first ended, at a %globaltimer
  // stamp of today (past 2^53 ns): they must not be seen overlapping.
  Trace t;
  t.header.backend = Backend::Gpu;
  const uint64_t now = 1'764'000'000'000'000'123ull;
  auto record = [&](EventKind k, uint32_t block, uint64_t time) {
    Event e{};
    e.kind = k;
    e.group_kind = GroupKind::Block;
    e.group_id = block;
    e.extra = 7;  // the SM
    e.time = time;
    t.events.push_back(e);
  };
  record(EventKind::ThreadBegin, 0, now);
  record(EventKind::ThreadEnd, 0, now + 1000);
  record(EventKind::ThreadBegin, 1, now + 1001);
  record(EventKind::ThreadEnd, 1, now + 2000);
  const BlockSchedule s = schedule_from_trace(t);
  ASSERT_EQ(s.blocks.size(), 2u);
  EXPECT_EQ(s.blocks[0].end, 1000);
  EXPECT_EQ(s.blocks[1].start, 1001);
  EXPECT_EQ(peak_resident_per_sm(s).at(7), 1);
}

}  // namespace
}  // namespace coop
