// Selections of a thread, its warp or its block: ranges, events and line counts.
#include <gtest/gtest.h>

#include "visual/selection.hpp"
#include "visual/synthetic_trace.hpp"

namespace coop::visual {
namespace {

TEST(Selection, ThreadWarpAndBlockRanges) {
  SyntheticTraceSpec spec;
  spec.blocks = 3;
  spec.block_threads = 96;
  const TimelineModel m(make_synthetic_trace(spec));
  Selection s{150, SelectionScope::Thread};  // block 1, warp 1, lane 22
  EXPECT_EQ(selected_threads(m, s), (std::pair<uint32_t, uint32_t>{150, 151}));
  EXPECT_EQ(selection_label(m, s), "thread 150 (block 1, warp 1, lane 22)");
  s.scope = SelectionScope::Warp;
  EXPECT_EQ(selected_threads(m, s), (std::pair<uint32_t, uint32_t>{128, 160}));
  EXPECT_EQ(selection_label(m, s), "warp 1 of block 1");
  s.scope = SelectionScope::Block;
  EXPECT_EQ(selected_threads(m, s), (std::pair<uint32_t, uint32_t>{96, 192}));
  EXPECT_EQ(selected_threads(m, Selection{}), (std::pair<uint32_t, uint32_t>{0, 0}));
  EXPECT_EQ(selected_threads(m, Selection{9999, SelectionScope::Block}),
            (std::pair<uint32_t, uint32_t>{0, 0}));

  // A block's events are all its threads' events, in playback order.
  const std::vector<uint32_t> p = selection_positions(m, s);
  EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
  size_t expected = 0;
  for (uint32_t t = 96; t < 192; ++t) expected += m.thread_positions(t).size();
  EXPECT_EQ(p.size(), expected);
  for (uint32_t pos : p) EXPECT_EQ(m.at(pos).thread / 96, 1u);

  // At the end everyone of the block is counted on some line, nobody else.
  ThreadSnapshot snap;
  snap.update(m, m.size());
  const std::vector<uint32_t> counts = selection_line_counts(snap, m, s);
  uint32_t total = 0;
  for (uint32_t c : counts) total += c;
  EXPECT_EQ(total, 96u);
}

}  // namespace
}  // namespace coop::visual
