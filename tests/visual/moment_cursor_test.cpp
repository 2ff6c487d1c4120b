// Where a step's moment puts playback: always just after an event the moment names.
#include <gtest/gtest.h>

#include "visual/moment.hpp"
#include "visual/synthetic_trace.hpp"
#include "visual/thread_snapshot.hpp"

namespace coop::visual {
namespace {

TimelineModel model() {
  SyntheticTraceSpec spec;
  spec.blocks = 2;
  spec.block_threads = 64;
  return TimelineModel(make_synthetic_trace(spec));
}

size_t cursor(const TimelineModel& m, const char* moment) {
  const std::optional<size_t> c = moment_cursor(m, *parse_moment(moment), {});
  EXPECT_TRUE(c.has_value()) << moment;
  return c.value_or(0);
}

TEST(MomentCursor, FirstAndLastAreJustAfterAMatchingEvent) {
  const TimelineModel m = model();
  const size_t first = cursor(m, "first collective");
  ASSERT_GT(first, 0u);
  EXPECT_EQ(m.at(first - 1).kind, EventKind::Collective);
  // Every collective of that instant is shown, and nothing of the kind before it.
  const uint64_t t = m.at(first - 1).time;
  for (size_t p = 0; p < first; ++p)
    if (m.at(p).kind == EventKind::Collective) EXPECT_EQ(m.at(p).time, t);
  for (size_t p = first; p < m.size() && m.at(p).time == t; ++p)
    EXPECT_NE(m.at(p).kind, EventKind::Collective) << "a collective of the same instant left out";
  const size_t last = cursor(m, "last atomic");
  EXPECT_EQ(m.at(last - 1).kind, EventKind::Atomic);
  for (size_t p = last; p < m.size(); ++p) EXPECT_NE(m.at(p).kind, EventKind::Atomic);
  EXPECT_EQ(cursor(m, "end"), m.size());
  EXPECT_GT(cursor(m, "2nd collective"), first) << "ordinals count instants, not events";
  EXPECT_FALSE(moment_cursor(m, *parse_moment("first copy_wait"), {}).has_value());
}

TEST(MomentCursor, FiltersAndLinesNarrowTheMatch) {
  const TimelineModel m = model();
  const size_t b1 = cursor(m, "first collective in block 1 in warp 1");
  const Event& e = m.at(b1 - 1);
  EXPECT_EQ(e.thread / 64, 1u);
  EXPECT_EQ(e.thread % 64 / 32, 1u);
  const std::vector<int> no_such_line = {9999};
  EXPECT_FALSE(moment_cursor(m, *parse_moment("first collective"), no_such_line).has_value());
  EXPECT_TRUE(moment_cursor(m, *parse_moment("first collective anywhere"), no_such_line));
}

TEST(MomentCursor, ArrivedShowsEveryMemberWaiting) {
  const TimelineModel m = model();
  const size_t c = cursor(m, "arrived barrier in block 0");
  ThreadSnapshot s;
  s.update(m, c);
  // All 64 threads of block 0 have arrived and none has left yet.
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(s.activity(t), ThreadActivity::Waiting) << t;
  EXPECT_EQ(m.at(c - 1).kind, EventKind::Barrier);
}

TEST(MomentCursor, BarrierInstancesAreToldApartBySizeAndWarp) {
  Event quad{}, warp{};
  quad.kind = warp.kind = EventKind::Barrier;
  quad.group_kind = warp.group_kind = GroupKind::Tile;
  quad.group_id = warp.group_id = 3;
  quad.extra = warp.extra = 1;
  quad.group_size = 4;
  warp.group_size = 32;
  EXPECT_NE(barrier_instance(quad, 128), barrier_instance(warp, 128));
  Event a{}, b{};
  a.kind = b.kind = EventKind::Barrier;
  a.group_kind = b.group_kind = GroupKind::Labeled;  // label 1 in warp 0 and in warp 1
  a.group_id = b.group_id = 1;
  a.thread = 5;
  b.thread = 37;
  EXPECT_NE(barrier_instance(a, 64), barrier_instance(b, 64));
  a.group_kind = b.group_kind = GroupKind::Block;  // one block barrier for both
  a.group_id = b.group_id = 0;
  EXPECT_EQ(barrier_instance(a, 64), barrier_instance(b, 64));
}

}  // namespace
}  // namespace coop::visual
