// ThreadSnapshot: what each thread is doing at a cursor, incremental updates equal rebuilds.
#include <gtest/gtest.h>

#include <random>

#include "visual/synthetic_trace.hpp"
#include "visual/thread_snapshot.hpp"

namespace coop::visual {
namespace {

TimelineModel model(uint32_t blocks = 4, uint32_t block_threads = 64) {
  SyntheticTraceSpec spec;
  spec.blocks = blocks;
  spec.block_threads = block_threads;
  return TimelineModel(make_synthetic_trace(spec));
}

TEST(ThreadSnapshot, StartsWithNobodyAndEndsWithEveryGroupKnown) {
  const TimelineModel m = model();
  ThreadSnapshot s;
  s.update(m, 0);
  ASSERT_EQ(s.thread_count(), 256u);
  EXPECT_EQ(s.activity(0), ThreadActivity::NotStarted);
  EXPECT_FALSE(s.membership(0, GroupKind::Tile).member());
  ASSERT_EQ(s.group_kinds(), (std::vector<GroupKind>{GroupKind::Block, GroupKind::Tile}));
  s.update(m, m.size());
  for (uint32_t t = 0; t < 256; ++t) {
    const GroupMembership tile = s.membership(t, GroupKind::Tile);
    ASSERT_TRUE(tile.member());
    EXPECT_EQ(tile.id, (t % 64) / 32);
    EXPECT_EQ(tile.rank, t % 32);
    EXPECT_EQ(tile.size, 32u);
    const GroupMembership block = s.membership(t, GroupKind::Block);
    EXPECT_EQ(block.id, t / 64);
    EXPECT_EQ(block.rank, t % 64);
  }
  EXPECT_FALSE(s.membership(0, GroupKind::Labeled).member()) << "a kind the trace never creates";
}

TEST(ThreadSnapshot, EarlyWarpsWaitAtTheBarrierUntilTheLastArrives) {
  const TimelineModel m = model(1, 64);
  ThreadSnapshot s;
  // The first phase ends with the last arrival: everyone has arrived and still waits.
  const size_t end = m.phase_ends().at(0);
  s.update(m, end);  // the last arrival not shown yet
  EXPECT_EQ(s.activity(0), ThreadActivity::Waiting) << "warp 0 arrived first and waits";
  EXPECT_EQ(s.line(0), 8);
  EXPECT_NE(s.line(63), 8) << "warp 1 has not arrived";
  s.update(m, end + 1);
  EXPECT_EQ(s.line(63), 8);
  EXPECT_EQ(s.line_counts().at(8), 64u) << "all 64 threads are at the first sync";
}

TEST(ThreadSnapshot, IncrementalMovesMatchARebuild) {
  const TimelineModel m = model(6, 96);
  ThreadSnapshot moving;
  std::mt19937 rng(3);
  size_t cursor = 0;
  for (int i = 0; i < 60; ++i) {
    const int64_t step = int64_t(rng() % 200) - 90;  // mostly small moves, both directions
    cursor = size_t(std::clamp<int64_t>(int64_t(cursor) + step, 0, int64_t(m.size())));
    if (i % 20 == 19) cursor = rng() % m.size();  // and a few long jumps
    moving.update(m, cursor);
    ThreadSnapshot fresh;
    fresh.update(m, cursor);
    ASSERT_EQ(moving.now(), fresh.now());
    for (uint32_t t = 0; t < fresh.thread_count(); ++t) {
      ASSERT_EQ(moving.last_position(t), fresh.last_position(t)) << "thread " << t;
      ASSERT_EQ(moving.activity(t), fresh.activity(t));
      ASSERT_EQ(moving.membership(t, GroupKind::Tile).id, fresh.membership(t, GroupKind::Tile).id);
    }
    ASSERT_EQ(moving.line_counts(), fresh.line_counts());
  }
}

}  // namespace
}  // namespace coop::visual
