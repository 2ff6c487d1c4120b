// split-barriers beyond its default run: the cluster variant for every cluster size, the GPU
// rules (clusters need 9.0, hazards never launch), both hazards under several seeds; on a GPU,
// the block variant and (on 9.0+) the cluster variant against the emulator.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& split() {
  return *find_lesson("split-barriers");
}

TEST(SplitBarriers, TheClusterVariantWorksForEveryClusterSize) {
  auto exec = testing::emulator();
  for (int64_t cluster : {2, 4, 8}) {
    RunRequest r = lesson_request(split(), {{"variant", 1}, {"cluster", cluster}});
    r.config.grid = {8, 1, 1};
    const LessonRun run = run_lesson(split(), *exec, r);
    expect_checks_pass(run, "cluster=" + std::to_string(cluster));
    EXPECT_EQ(run.launches.at(0).header.launch.mode, LaunchMode::Cluster);
    for (const Event& e : run.launches.at(0).events)
      if (e.kind == EventKind::BarrierWait) EXPECT_EQ(e.group_kind, GroupKind::Cluster);
  }
}

TEST(SplitBarriers, TheClusterVariantNamesTheGridThatDoesNotDivide) {
  auto exec = testing::emulator();
  RunRequest r = lesson_request(split(), {{"variant", 1}, {"cluster", 4}});
  r.config.grid = {6, 1, 1};
  const LessonRun run = run_lesson(split(), *exec, r);
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("grid 6 is not a multiple of 4"), std::string::npos)
      << run.status.message();
}

TEST(SplitBarriers, ADeviceBelow90RefusesTheClusterVariantAndHazardsNeverLaunch) {
  testing::CountingGpu ampere(8, 0);
  LessonRun run = run_lesson(split(), ampere, lesson_request(split(), {{"variant", 1}}));
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("compute capability 9.0"), std::string::npos)
      << run.status.message();
  EXPECT_EQ(ampere.launches, 0);
  for (int64_t variant : {2, 3}) {
    testing::CountingGpu hopper(9, 0);
    run = run_lesson(split(), hopper, lesson_request(split(), {{"variant", variant}}));
    ASSERT_FALSE(run.status.ok());
    EXPECT_NE(run.status.message().find("runs only on the emulator"), std::string::npos)
        << run.status.message();
    EXPECT_EQ(hopper.launches, 0) << "variant " << variant;
  }
  // The default (block) variant is meant for any GPU: it does try to launch.
  testing::CountingGpu ampere_default(8, 0);
  run = run_lesson(split(), ampere_default, lesson_request(split()));
  EXPECT_EQ(ampere_default.launches, 1);
}

TEST(SplitBarriers, ACollectiveBetweenArriveAndWaitIsStoppedAtItsLine) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(split(), *exec, lesson_request(split(), {{"variant", 2}}));
  expect_checks_pass(run, "variant=2");
  const int line = lines_with(split().source, "// not allowed: this block's split").at(0);
  EXPECT_NE(run.checks.at(0).got.find("line " + std::to_string(line)), std::string::npos)
      << run.checks.at(0).got;
}

TEST(SplitBarriers, WaitingIsNotEveryoneHavingWaitedUnderEverySeed) {
  auto exec = testing::emulator();
  for (uint64_t seed : {0, 1, 2, 9, 77}) {
    RunRequest r = lesson_request(split(), {{"variant", 3}});
    r.seed = seed;
    expect_checks_pass(run_lesson(split(), *exec, r), "variant=3, seed " + std::to_string(seed));
  }
}

// gpu: the block variant on any GPU; the cluster variant where clusters exist.
TEST(SplitBarriersGpu, BlockAndClusterVariantsMatchTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  RunRequest r = lesson_request(split());
  r.config.block = {256, 1, 1};
  testing::expect_backends_agree(*gpu, "split-barriers", r);
  if (gpu->device().cc_major < 9) GTEST_SKIP() << "clusters need compute capability 9.0";
  for (int64_t cluster : {2, 4}) {
    RunRequest c = lesson_request(split(), {{"variant", 1}, {"cluster", cluster}});
    c.config.grid = {8, 1, 1};
    testing::expect_backends_agree(*gpu, "split-barriers", c);
  }
}

}  // namespace
}  // namespace coop::lessons
