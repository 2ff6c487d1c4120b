// synchronization-hazards (synchronization_hazards.cu, run as a program) beyond its default run:
// the deadlock's stuck threads on the __syncthreads() line and the partition made by half the
// block, for two block sizes and schedules; the missing barrier's race found between exactly its
// write and its read, under every schedule, and none with the barrier; the safe variant and the
// race on a GPU, and the hazards refused there.
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

using testing::check_named;
using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& hazards() {
  return *find_lesson("synchronization-hazards");
}

int line_of_comment(const char* comment) {
  return lines_with(hazards().source, comment).at(0);
}

// The launch failed, as the program saw it, and its trace claim about the stopped threads held.
void expect_stopped(const LessonRun& run, const std::string& claim, const std::string& where) {
  const Check* stopped = check_named(run, "the emulator stopped the launch");
  ASSERT_NE(stopped, nullptr) << where;
  EXPECT_TRUE(stopped->pass) << where;
  EXPECT_TRUE(stopped->got.starts_with("cudaErrorLaunchFailure")) << where << ": " << stopped->got;
  const Check* claimed = check_named(run, claim);
  ASSERT_NE(claimed, nullptr) << where << ": no check named " << claim;
  EXPECT_TRUE(claimed->pass) << where << ": " << claimed->got;
  ASSERT_EQ(run.launches.size(), 1u) << where << ": the partial trace is kept";
}

TEST(SynchronizationHazards, TheLibraryDeadlockLeavesTheLowerHalfStuckAtItsSyncthreads) {
  auto exec = testing::emulator();
  const int line = line_of_comment("// the whole block, whoever called");
  for (uint32_t block : {64u, 256u}) {
    const std::string where = "block " + std::to_string(block);
    const LessonRun run =
        run_lesson(hazards(), *exec, lesson_request(hazards(), {{"variant", 1}}, 2, block));
    expect_checks_pass(run, where);
    expect_stopped(run, "the emulator reported the deadlock at line " + std::to_string(line),
                   where);
    // Every lower-half thread waits on that line for ever; the upper half left, recording nothing.
    size_t stuck = 0;
    for (const Event& e : run.launches[0].events) {
      EXPECT_LT(e.thread % block, block / 2) << where << ": thread " << e.thread;
      stuck += e.kind == EventKind::Barrier && (e.flags & kFlagStuck) && e.line == line;
    }
    EXPECT_EQ(stuck, block) << where << ": half of each of the two blocks";
  }
}

TEST(SynchronizationHazards, APartitionInsideTheBranchIsMadeByHalfTheBlock) {
  auto exec = testing::emulator();
  const int line = line_of_comment("// too late: half are gone");
  for (uint64_t seed : {0, 11}) {
    const std::string where = "seed " + std::to_string(seed);
    RunRequest r = lesson_request(hazards(), {{"variant", 2}});
    r.seed = seed;
    r.schedule = Schedule::Random;
    const LessonRun run = run_lesson(hazards(), *exec, r);
    expect_checks_pass(run, where);
    expect_stopped(run, "the emulator reported the partition at line " + std::to_string(line),
                   where);
    size_t made = 0;
    for (const Event& e : run.launches[0].events)
      if (e.kind == EventKind::GroupCreate && e.line == line) {
        ++made;
        EXPECT_LT(e.thread % 64, 32u) << where << ": thread " << e.thread;
      }
    EXPECT_EQ(made, 64u) << where;
  }
}

TEST(SynchronizationHazards, TheFixWorksForEveryBlockSize) {
  auto exec = testing::emulator();
  for (uint32_t block : {128u, 1024u})
    expect_checks_pass(run_lesson(hazards(), *exec, lesson_request(hazards(), {}, 2, block)),
                       "block " + std::to_string(block));
  const LessonRun run = run_lesson(hazards(), *exec, lesson_request(hazards(), {}, 2, 96));
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("96"), std::string::npos) << run.status.message();
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
// does the group-parameter fix; variant 0 records only its traced stores unless asked.
TEST(SynchronizationHazards, WithItsBarrierTheSameReadIsNoRace) {
  auto exec = testing::emulator();
  const LessonRun plain = run_lesson(hazards(), *exec, lesson_request(hazards()));
  expect_checks_pass(plain);
  for (const Trace& t : plain.launches)
    EXPECT_EQ(count_events(t, [](const Event& e) { return e.kind == EventKind::Load; }), 0u)
        << t.header.kernel << ": lesson.json records memory for variant 3 only";
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

// gpu: the race runs, every thread reads its neighbour's value or -1, and the detector's claim
// says it is the emulator's alone; the hazard variants are refused before launching.
TEST(SynchronizationHazardsGpu, TheMissingBarrierRunsAndItsRaceCheckIsSkipped) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonRun run =
      run_lesson(hazards(), *gpu, lesson_request(hazards(), {{"variant", 3}}, 4, 256));
  expect_checks_pass(run);
  ASSERT_EQ(testing::skipped_checks(run), 1u);
  for (const Check& c : run.checks)
    if (c.skipped) EXPECT_NE(c.got.find("emulator only"), std::string::npos) << c.got;
  for (int64_t variant : {1, 2}) testing::expect_hazard_refused(hazards(), *gpu, variant);
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
