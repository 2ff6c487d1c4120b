// The warp-collectives lesson beyond the registry's checks: every shuffle distance and mask, the
// three kinds of input, the values the trace records moving, and the layout the CPU mirrors.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using coop::testing::expect_checks_pass;
using coop::testing::request_with;

const LessonDef& warp_lesson() {
  const LessonDef* l = find_lesson("warp-collectives");
  EXPECT_NE(l, nullptr);
  return *l;
}

TEST(WarpCollectives, ChecksPassForEveryDistanceMaskAndInput) {
  auto exec = coop::testing::emulator();
  for (int64_t values : {0, 1, 2})
    for (int64_t k : {0, 1, 7, 16, 31}) {
      const Params p{{"src", k}, {"delta", k}, {"xor", k}, {"values", values}, {"data", 3 + k}};
      const LessonRun run =
          run_lesson(warp_lesson(), *exec, request_with(warp_lesson(), p, {2, 1, 1}, {96, 1, 1}));
      expect_checks_pass(run, "values " + std::to_string(values) + ", k " + std::to_string(k));
    }
}

// With values 100 + lane, the trace shows where each value came from.
TEST(WarpCollectives, TraceShowsValuesMovingLaneToLane) {
  auto exec = coop::testing::emulator();
  const LessonRun run = run_lesson(
      warp_lesson(), *exec, request_with(warp_lesson(), {{"src", 9}, {"delta", 3}, {"xor", 4}}));
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  size_t seen = 0;
  for (const Event& e : run.launches.at(0).events) {
    const bool shuffle =
        e.op == Op::Shfl || e.op == Op::ShflUp || e.op == Op::ShflDown || e.op == Op::ShflXor;
    if (e.kind != EventKind::Collective || !shuffle) continue;
    const uint32_t lane = e.rank;
    ASSERT_EQ(e.a, 100 + lane) << "each lane puts in 100 + its lane";
    if (e.op == Op::Shfl) EXPECT_EQ(e.b, 109u);
    if (e.op == Op::ShflUp) EXPECT_EQ(e.b, lane >= 3 ? 100 + lane - 3 : 100 + lane);
    if (e.op == Op::ShflDown) EXPECT_EQ(e.b, lane + 3 < 32 ? 100 + lane + 3 : 100 + lane);
    if (e.op == Op::ShflXor) EXPECT_EQ(e.b, 100 + (lane ^ 4));
    ++seen;
  }
  EXPECT_EQ(seen, 4u * 64u);
}

// The tree takes five shfl_down steps per lane, with offsets 16, 8, 4, 2, 1 in that order.
TEST(WarpCollectives, TreeReductionTakesFiveHalvingSteps) {
  auto exec = coop::testing::emulator();
  const LessonRun run = run_lesson(warp_lesson(), *exec, request_with(warp_lesson()));
  ASSERT_TRUE(run.status.ok());
  std::vector<std::vector<uint32_t>> offsets(64);
  for (const Event& e : run.launches.at(1).events)
    if (e.kind == EventKind::Collective && e.op == Op::ShflDown)
      offsets.at(e.thread).push_back(e.extra);
  for (const auto& o : offsets) EXPECT_EQ(o, (std::vector<uint32_t>{16, 8, 4, 2, 1}));
}

TEST(WarpCollectives, CpuLayoutMatchesTheKernelFile) {
  EXPECT_FALSE(lines_with(warp_lesson().source, "constexpr int kSlots = 10;").empty());
}

TEST(WarpCollectives, RejectsPartialWarpsByName) {
  auto exec = coop::testing::emulator();
  const LessonRun run =
      run_lesson(warp_lesson(), *exec, request_with(warp_lesson(), {}, {1, 1, 1}, {40, 1, 1}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("40"), std::string::npos) << run.status.message();
}

// gpu: non-default distances and random values on the device agree with the CPU.
TEST(WarpCollectivesGpu, ChecksPassForOtherDistances) {
  COOP_GPU_OR_SKIP(gpu);
  for (int64_t values : {1, 2}) {
    const Params p{{"src", 31}, {"delta", 7}, {"xor", 16}, {"values", values}};
    const LessonRun run =
        run_lesson(warp_lesson(), *gpu, request_with(warp_lesson(), p, {4, 1, 1}, {128, 1, 1}));
    expect_checks_pass(run, "gpu, values " + std::to_string(values));
  }
}

}  // namespace
}  // namespace coop::lessons
