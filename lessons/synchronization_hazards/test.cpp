// synchronization-hazards beyond its default run: both deadlocks reported with the right line
// and threads, for several block sizes and seeds; the hazard variants never reach a GPU; the
// safe variant on a GPU against the emulator.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& hazards() {
  return *find_lesson("synchronization-hazards");
}

int line_of_comment(const char* comment) {
  return lines_with(hazards().source, comment).at(0);
}

TEST(SynchronizationHazards, TheLibraryDeadlockIsReportedAtItsSyncthreads) {
  auto exec = testing::emulator();
  for (uint32_t block : {64u, 256u}) {
    RunRequest r = lesson_request(hazards(), {{"variant", 1}});
    r.config.block = {block, 1, 1};
    const LessonRun run = run_lesson(hazards(), *exec, r);
    expect_checks_pass(run, "variant=1, block " + std::to_string(block));
    // The deadlock report, then the time order that every lesson run checks.
    ASSERT_EQ(run.checks.size(), 2u);
    EXPECT_NE(run.checks[1].name.find("no thread left a barrier"), std::string::npos)
        << run.checks[1].name;
    const std::string line = std::to_string(line_of_comment("// the whole block, whoever called"));
    EXPECT_NE(run.checks[0].got.find("__syncthreads() at line " + line), std::string::npos)
        << run.checks[0].got;
    EXPECT_NE(run.checks[0].got.find(std::to_string(block / 2) + " exited without arriving"),
              std::string::npos)
        << run.checks[0].got;
    EXPECT_EQ(run.launches.size(), 1u) << "the partial trace is kept";
  }
}

TEST(SynchronizationHazards, APartitionInsideTheBranchIsReportedAtThePartition) {
  auto exec = testing::emulator();
  for (uint64_t seed : {0, 3, 11}) {
    RunRequest r = lesson_request(hazards(), {{"variant", 2}});
    r.seed = seed;
    const LessonRun run = run_lesson(hazards(), *exec, r);
    expect_checks_pass(run, "variant=2, seed " + std::to_string(seed));
    const std::string line = std::to_string(line_of_comment("// too late: half are gone"));
    EXPECT_NE(run.checks.at(0).got.find("tiled_partition() at line " + line), std::string::npos)
        << run.checks.at(0).got;
  }
}

TEST(SynchronizationHazards, HazardVariantsAreRefusedOnTheDeviceBeforeLaunching) {
  for (int64_t variant : {1, 2}) {
    testing::CountingGpu gpu(9, 0);
    const LessonRun run =
        run_lesson(hazards(), gpu, lesson_request(hazards(), {{"variant", variant}}));
    ASSERT_FALSE(run.status.ok());
    EXPECT_NE(run.status.message().find("runs only on the emulator"), std::string::npos)
        << run.status.message();
    EXPECT_EQ(gpu.launches, 0) << "variant " << variant << " must not be launched on a GPU";
  }
}

TEST(SynchronizationHazards, TheFixWorksForEveryBlockSize) {
  auto exec = testing::emulator();
  for (uint32_t block : {64u, 128u, 512u, 1024u}) {
    RunRequest r = lesson_request(hazards());
    r.config.block = {block, 1, 1};
    expect_checks_pass(run_lesson(hazards(), *exec, r), "block " + std::to_string(block));
  }
  RunRequest r = lesson_request(hazards());
  r.config.block = {96, 1, 1};
  const LessonRun run = run_lesson(hazards(), *exec, r);
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("got 96"), std::string::npos) << run.status.message();
}

// gpu: the safe variant with a larger block, against the emulator.
TEST(SynchronizationHazardsGpu, TheSafeVariantMatchesTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  RunRequest r = lesson_request(hazards());
  r.config.block = {256, 1, 1};
  testing::expect_backends_agree(*gpu, "synchronization-hazards", r);
}

}  // namespace
}  // namespace coop::lessons
