// The synthetic traces behind the demo window and the frame benchmark look like real ones.
#include <gtest/gtest.h>

#include "device/trace/value.hpp"
#include "lessons/lesson.hpp"
#include "visual/synthetic_trace.hpp"
#include "visual/timeline_model.hpp"

namespace coop::visual {
namespace {

TEST(SyntheticTrace, SixtyFourKThreadsMakeAboutAMillionEvents) {
  SyntheticTraceSpec spec;
  spec.blocks = 256;
  spec.block_threads = 256;
  const Trace t = make_synthetic_trace(spec);
  EXPECT_GE(t.events.size(), 1'000'000u);
  EXPECT_LE(t.events.size(), 1'100'000u);
  EXPECT_EQ(t.header.launch.total_threads(), 65536u);
  for (size_t i = 0; i < t.events.size(); ++i) ASSERT_EQ(t.events[i].sequence, i);
}

TEST(SyntheticTrace, LinesPointAtTheSourceAndValuesAddUp) {
  SyntheticTraceSpec spec;
  spec.blocks = 3;
  spec.block_threads = 64;
  const Trace t = make_synthetic_trace(spec);
  const std::string& src = t.header.source;
  auto line_of = [&](std::string_view snippet) { return lessons::lines_with(src, snippet).at(0); };
  int32_t atomic_sum = 0, input_sum = 0, last_old = -1;
  uint32_t phases = 0;
  for (const Event& e : t.events) {
    switch (e.kind) {
      case EventKind::GroupCreate:
        EXPECT_EQ(e.line, e.group_kind == GroupKind::Tile ? line_of("tiled_partition")
                                                          : line_of("this_thread_block"));
        break;
      case EventKind::Barrier:
        EXPECT_TRUE(e.line == line_of("visible") || e.line == line_of("is done"));
        EXPECT_GT(e.b, e.time) << "departs after arriving";
        phases = std::max(phases, e.extra);
        break;
      case EventKind::Collective:
        EXPECT_EQ(e.line, line_of("shfl_down"));
        break;
      case EventKind::Atomic:
        EXPECT_EQ(e.line, line_of("atomicAdd"));
        EXPECT_GT(from_bits<int32_t>(e.b), last_old) << "old values grow in landing order";
        last_old = from_bits<int32_t>(e.b);
        atomic_sum += from_bits<int32_t>(e.a);
        break;
      case EventKind::Load:
        if (e.line == line_of("traced(input")) input_sum += from_bits<int32_t>(e.b);
        break;
      default:
        break;
    }
  }
  EXPECT_EQ(atomic_sum, input_sum) << "the tiles' shfl_down trees sum every input";
  EXPECT_EQ(phases, 2 * spec.rounds);
  EXPECT_EQ(TimelineModel(t).phase_ends().size(), 3 * 2 * spec.rounds);
}

}  // namespace
}  // namespace coop::visual
