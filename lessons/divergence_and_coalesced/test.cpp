// The divergence-and-coalesced lesson beyond the registry's checks: many branch densities and
// schedules, the odd-lanes pattern's ranks, atomics counted from the traces, the launch rules.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using coop::testing::expect_checks_pass;
using coop::testing::request_with;
using coop::testing::result_of;

const LessonDef& divergence() {
  const LessonDef* l = find_lesson("divergence-and-coalesced");
  EXPECT_NE(l, nullptr);
  return *l;
}

size_t atomics_in(const Trace& t) {
  size_t n = 0;
  for (const Event& e : t.events) n += e.kind == EventKind::Atomic;
  return n;
}

TEST(DivergenceAndCoalesced, ChecksPassForAnyDensityAndSchedule) {
  auto exec = coop::testing::emulator();
  for (int64_t keep : {0, 5, 40, 95, 100})
    for (uint64_t seed : {0, 7}) {
      RunRequest r =
          request_with(divergence(), {{"keep", keep}, {"data", 11 + keep}}, {3, 1, 1}, {160, 1, 1});
      r.seed = seed;
      const LessonRun run = run_lesson(divergence(), *exec, r);
      expect_checks_pass(run, "keep " + std::to_string(keep) + ", seed " + std::to_string(seed));
      const size_t per_thread = atomics_in(run.launches.at(1)),
                   aggregated = atomics_in(run.launches.at(2));
      EXPECT_LE(aggregated, per_thread);
      EXPECT_LE(aggregated, size_t(3 * 160 / 32)) << "at most one per warp on the emulator";
    }
}

// The blog's example: the odd lanes take the branch; lane 2k + 1 is rank k of a 16-thread group.
TEST(DivergenceAndCoalesced, OddLanesAreRankedWithoutGaps) {
  auto exec = coop::testing::emulator();
  const LessonRun run =
      run_lesson(divergence(), *exec, request_with(divergence(), {{"pattern", 1}}));
  expect_checks_pass(run, "odd lanes");
  EXPECT_EQ(result_of(run, "warp 0 ranks inside the branch (. stayed out)"),
            ". 0 . 1 . 2 . 3 . 4 . 5 . 6 . 7 . 8 . 9 . 10 . 11 . 12 . 13 . 14 . 15");
  for (const Event& e : run.launches.at(0).events)
    if (e.kind == EventKind::GroupCreate) {
      EXPECT_EQ(e.group_kind, GroupKind::Coalesced);
      EXPECT_EQ(e.group_size, 16u);
      EXPECT_EQ(e.rank, (e.thread % 32) / 2);
    }
  EXPECT_EQ(atomics_in(run.launches.at(1)), 64u);
  EXPECT_EQ(atomics_in(run.launches.at(2)), 4u);
}

TEST(DivergenceAndCoalesced, RejectsOddLanesWithoutRoomForBothHalves) {
  auto exec = coop::testing::emulator();
  const LessonRun run =
      run_lesson(divergence(), *exec, request_with(divergence(), {{"pattern", 1}, {"keep", 0}}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("keep = 0"), std::string::npos) << run.status.message();
}

TEST(DivergenceAndCoalesced, CpuLayoutMatchesTheKernelFile) {
  EXPECT_FALSE(lines_with(divergence().source, "constexpr int kSlots = 3;").empty());
}

// gpu: guaranteed properties hold on the device, both ways keep the same values, fewer atomics
// are issued with aggregation, and both are timed.
TEST(DivergenceAndCoalescedGpu, AggregationKeepsTheValuesWithFewerAtomics) {
  COOP_GPU_OR_SKIP(gpu);
  for (int64_t pattern : {0, 1}) {
    const LessonRun run =
        run_lesson(divergence(), *gpu,
                   request_with(divergence(), {{"pattern", pattern}}, {8, 1, 1}, {256, 1, 1}));
    expect_checks_pass(run, "gpu, pattern " + std::to_string(pattern));
    EXPECT_EQ(testing::skipped_checks(run), 0u);
    EXPECT_LT(atomics_in(run.launches.at(2)), atomics_in(run.launches.at(1)));
    EXPECT_NE(result_of(run, "speed-up of aggregation"), "");
    std::cout << "[ gpu      ] pattern " << pattern << ": groups "
              << result_of(run, "coalesced groups formed") << "; atomics "
              << result_of(run, "atomics issued, one per thread") << " vs "
              << result_of(run, "atomics issued, warp-aggregated") << "; time "
              << result_of(run, "time, one atomic per thread") << " vs "
              << result_of(run, "time, warp-aggregated") << "\n";
  }
}

}  // namespace
}  // namespace coop::lessons
