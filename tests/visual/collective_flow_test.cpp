// Collective calls gathered across their group, shuffle sources and reduce trees; barrier
// timelines per warp and per block.
#include <gtest/gtest.h>

#include "device/trace/value.hpp"
#include "visual/barrier_timeline.hpp"
#include "visual/collective_flow.hpp"
#include "visual/synthetic_trace.hpp"

namespace coop::visual {
namespace {

TimelineModel synthetic(uint32_t blocks, uint32_t threads, uint32_t rounds = 2) {
  SyntheticTraceSpec spec;
  spec.blocks = blocks;
  spec.block_threads = threads;
  spec.rounds = rounds;
  return TimelineModel(make_synthetic_trace(spec));
}

TEST(CollectiveFlow, ShuffleSourcesFollowCudaRules) {
  EXPECT_EQ(shuffle_source(Op::ShflDown, 3, 32, 16), 19);
  EXPECT_EQ(shuffle_source(Op::ShflDown, 20, 32, 16), 20) << "out of range: own value";
  EXPECT_EQ(shuffle_source(Op::ShflUp, 2, 32, 4), 2);
  EXPECT_EQ(shuffle_source(Op::ShflUp, 6, 32, 4), 2);
  EXPECT_EQ(shuffle_source(Op::ShflXor, 5, 32, 1), 4);
  EXPECT_EQ(shuffle_source(Op::Shfl, 9, 32, 0), 0);
  EXPECT_EQ(shuffle_source(Op::Reduce, 9, 32, 0), -1);
}

TEST(CollectiveFlow, GathersTheWholeTileOfTheLatestShuffle) {
  const TimelineModel m = synthetic(2, 64);
  const auto call = collective_before(m, m.size());
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->op, Op::ShflDown);
  EXPECT_EQ(call->extra, 1u) << "the last of 16, 8, 4, 2, 1";
  ASSERT_EQ(call->members.size(), 32u);
  for (uint32_t r = 0; r < 32; ++r) {
    const CollectiveMember& mem = call->members[r];
    ASSERT_TRUE(mem.present) << r;
    EXPECT_EQ(mem.source, r + 1 < 32 ? int64_t(r + 1) : int64_t(r));
    // What a member got is what its source held.
    EXPECT_EQ(mem.out, call->members[size_t(mem.source)].in);
  }
  const auto first = collective_before(m, m.size(), 0);
  EXPECT_EQ(first->block, call->block);
  EXPECT_FALSE(collective_before(m, 0).has_value());
}

TEST(CollectiveFlow, ReduceTreeCombinesPairsDownToOneValue) {
  std::vector<uint64_t> in;
  for (int32_t v : {3, 1, 4, 1, 5}) in.push_back(to_bits(v));
  const auto levels = reduce_tree(in, Op::Plus, ValueType::I32);
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[1].size(), 3u);
  EXPECT_EQ(from_bits<int32_t>(levels.back().at(0)), 14);
  EXPECT_EQ(from_bits<int32_t>(reduce_tree(in, Op::Greater, ValueType::I32).back().at(0)), 5);
}

TEST(BarrierTimeline, OneSpanPerWarpAndPhaseWithArrivalsBeforeDepartures) {
  const TimelineModel m = synthetic(3, 96, 2);  // 3 warps a block, 4 phases
  const BarrierTimeline warps(m, BarrierLanes::Warps);
  ASSERT_EQ(warps.lane_count(), 9u);
  for (uint32_t lane = 0; lane < warps.lane_count(); ++lane) {
    const auto spans = warps.lane(lane);
    ASSERT_EQ(spans.size(), 4u);
    for (size_t i = 0; i < spans.size(); ++i) {
      EXPECT_EQ(spans[i].phase, i + 1);
      EXPECT_EQ(spans[i].threads, 32u);
      EXPECT_LE(spans[i].first_arrive, spans[i].last_arrive);
      EXPECT_LT(spans[i].last_arrive, spans[i].depart);
    }
  }
  // The first warp of a block waits longest: it arrives first, everyone leaves together.
  EXPECT_LT(warps.lane(0)[0].first_arrive, warps.lane(2)[0].first_arrive);
  EXPECT_EQ(warps.lane(0)[0].depart, warps.lane(2)[0].depart);
  const BarrierTimeline blocks(m, BarrierLanes::Blocks);
  ASSERT_EQ(blocks.lane_count(), 3u);
  EXPECT_EQ(blocks.lane(1)[0].threads, 96u);
  EXPECT_EQ(blocks.lane(1)[0].first_arrive, warps.lane(3)[0].first_arrive);
  // Time queries return only overlapping spans.
  const auto& s = blocks.lane(0);
  const auto some = blocks.lane_between(0, s[1].first_arrive, s[1].depart);
  ASSERT_FALSE(some.empty());
  for (const BarrierSpan& x : some) {
    EXPECT_LE(x.first_arrive, s[1].depart);
    EXPECT_GE(x.depart, s[1].first_arrive);
  }
  EXPECT_EQ(blocks.lane_between(0, blocks.end_time() + 10, blocks.end_time() + 20).size(), 0u);
}

}  // namespace
}  // namespace coop::visual
