// split-barriers (split_barriers.cu, run as a program) beyond its default run: the cluster variant
// for every cluster size, both hazards under several seeds; on a GPU, the block variant and (on
// 9.0+) the cluster variant against the emulator, the cluster variant refused below 9.0 and the
// hazards refused before launching.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::check_named;
using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& split() {
  return *find_lesson("split-barriers");
}

TEST(SplitBarriers, TheClusterVariantWorksForEveryClusterSize) {
  auto exec = testing::emulator();
  for (int64_t cluster : {2, 4, 8}) {
    const LessonRun run = run_lesson(
        split(), *exec, lesson_request(split(), {{"variant", 1}, {"cluster", cluster}}, 8, 64));
    expect_checks_pass(run, "cluster=" + std::to_string(cluster));
    EXPECT_EQ(run.launches.at(0).header.launch.mode, LaunchMode::Cluster);
    EXPECT_EQ(run.launches.at(0).header.launch.cluster.x, uint32_t(cluster));
    for (const Event& e : run.launches.at(0).events)
      if (e.kind == EventKind::BarrierWait) EXPECT_EQ(e.group_kind, GroupKind::Cluster);
  }
}

TEST(SplitBarriers, TheClusterVariantNamesTheGridThatDoesNotDivide) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(
      split(), *exec, lesson_request(split(), {{"variant", 1}, {"cluster", 4}}, 6, 64));
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("grid 6 is not a multiple of 4"), std::string::npos)
      << run.status.message();
}

TEST(SplitBarriers, ACollectiveBetweenArriveAndWaitIsStoppedAtItsLine) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(split(), *exec, lesson_request(split(), {{"variant", 2}}));
  expect_checks_pass(run, "variant=2");
  const int line = lines_with(split().source, "// not allowed: this block's split").at(0);
  const Check* stopped = check_named(run, "the emulator stopped the launch");
  ASSERT_NE(stopped, nullptr);
  EXPECT_TRUE(stopped->got.starts_with("cudaErrorLaunchFailure")) << stopped->got;
  ASSERT_EQ(run.launches.size(), 1u);
  size_t faults = 0;
  for (const Event& e : run.launches[0].events)
    if (e.kind == EventKind::Fault) {
      ++faults;
      EXPECT_EQ(e.line, line);
    }
  EXPECT_EQ(faults, 1u) << "the first thread to reach the sync() stops the launch";
}

TEST(SplitBarriers, WaitingIsNotEveryoneHavingWaitedUnderEverySeed) {
  auto exec = testing::emulator();
  for (uint64_t seed : {0, 9, 77}) {
    RunRequest r = lesson_request(split(), {{"variant", 3}});
    r.seed = seed;
    r.schedule = Schedule::Random;
    expect_checks_pass(run_lesson(split(), *exec, r), "variant=3, seed " + std::to_string(seed));
  }
}

// gpu: the block variant on any GPU; the hazards never; the cluster variant where clusters exist,
// refused elsewhere.
TEST(SplitBarriersGpu, BlockAndClusterVariantsMatchTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  RunRequest r = lesson_request(split());
  r.config.block = {256, 1, 1};
  testing::expect_backends_agree(*gpu, "split-barriers", r);
  for (int64_t variant : {2, 3}) testing::expect_hazard_refused(split(), *gpu, variant);
  RunRequest c = lesson_request(split(), {{"variant", 1}, {"cluster", 2}}, 8, 64);
  if (gpu->device().cc_major < 9) {
    const LessonRun refused = run_lesson(split(), *gpu, c);
    ASSERT_FALSE(refused.status.ok());
    EXPECT_NE(refused.status.message().find("compute capability 9.0"), std::string::npos)
        << refused.status.message();
    GTEST_SKIP() << "clusters need compute capability 9.0";
  }
  for (int64_t cluster : {2, 4}) {
    c.params["cluster"] = cluster;
    testing::expect_backends_agree(*gpu, "split-barriers", c);
  }
}

}  // namespace
}  // namespace coop::lessons
