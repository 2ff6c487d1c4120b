// synchronization-hazards beyond its default run: both deadlocks reported with the right line
// and threads, for several block sizes and seeds; the hazard variants never reach a GPU; the
// missing barrier's race found between exactly its write and its read, and none with the
// barrier; the safe variant and the race on a GPU.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "device/trace/race_detector.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
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

// Variant 3: under every schedule the detector finds one race in shared memory, between the
// write and the read of missing_barrier, by a thread and its left neighbour in one block.
TEST(SynchronizationHazards, TheMissingBarrierIsOneRaceBetweenTheWriteAndTheRead) {
  auto exec = testing::emulator();
  const int write = line_of_comment("// the write");
  const int read = line_of_comment("// the read: no barrier since the neighbour's write");
  ASSERT_EQ(read, write + 1);
  for (const Schedule schedule : {Schedule::Lockstep, Schedule::Random, Schedule::Its}) {
    const std::string where = std::string("schedule ") + to_string(schedule);
    RunRequest r = lesson_request(hazards(), {{"variant", 3}}, 4, 128, 7);
    r.schedule = schedule;
    const LessonRun run = run_lesson(hazards(), *exec, r);
    expect_checks_pass(run, where);
    EXPECT_EQ(testing::skipped_checks(run), 0u) << where;
    ASSERT_EQ(run.launches.size(), 1u) << where;
    EXPECT_EQ(run.launches[0].header.kernel, "missing_barrier");
    const std::vector<Race> races = find_races(run.launches[0]);
    ASSERT_EQ(races.size(), 1u) << where;
    const Race& race = races[0];
    EXPECT_EQ(race.space, MemorySpace::Shared) << where;
    const std::set<std::pair<AccessKind, int>> sides = {{race.first.kind, race.first.line},
                                                        {race.second.kind, race.second.line}};
    EXPECT_EQ(sides, (std::set<std::pair<AccessKind, int>>{{AccessKind::Write, write},
                                                           {AccessKind::Read, read}}))
        << where;
    const RaceAccess& writer = race.first.kind == AccessKind::Write ? race.first : race.second;
    const RaceAccess& reader = race.first.kind == AccessKind::Write ? race.second : race.first;
    EXPECT_EQ(writer.thread / 128, reader.thread / 128) << where << ": one block's memory";
    EXPECT_EQ(writer.thread % 128, (reader.thread % 128 + 1) % 128)
        << where << ": the reader reads its right neighbour's slot";
  }
}

// The same read after the barrier (three_spellings, variant 0) races with nothing, and neither
// does the group-parameter fix.
TEST(SynchronizationHazards, WithItsBarrierTheSameReadIsNoRace) {
  auto exec = testing::emulator();
  exec->options().record_memory = true;
  const LessonRun run = run_lesson(hazards(), *exec, lesson_request(hazards()));
  expect_checks_pass(run);
  ASSERT_EQ(run.launches.size(), 2u);
  for (const Trace& t : run.launches) {
    EXPECT_GT(count_events(t, [](const Event& e) { return e.kind == EventKind::Load; }), 0u)
        << t.header.kernel << ": every load recorded";
    EXPECT_TRUE(find_races(t).empty()) << t.header.kernel;
  }
}

// Variant 3 never hangs: a GPU runs it (the stand-in GPU is asked to launch it).
TEST(SynchronizationHazards, TheMissingBarrierIsLaunchedOnAGpuToo) {
  testing::CountingGpu gpu(9, 0);
  run_lesson(hazards(), gpu, lesson_request(hazards(), {{"variant", 3}}));
  EXPECT_EQ(gpu.launches, 1);
}

// gpu: the race runs, every thread reads its neighbour's value or -1, and the detector's check
// says it is the emulator's alone.
TEST(SynchronizationHazardsGpu, TheMissingBarrierRunsAndItsRaceCheckIsSkipped) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonRun run =
      run_lesson(hazards(), *gpu, lesson_request(hazards(), {{"variant", 3}}, 4, 256));
  expect_checks_pass(run);
  ASSERT_EQ(testing::skipped_checks(run), 1u);
  for (const Check& c : run.checks)
    if (c.skipped) EXPECT_NE(c.got.find("emulator only"), std::string::npos) << c.got;
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
