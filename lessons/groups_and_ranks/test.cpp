// groups-and-ranks beyond its default run: 1D, 2D, 3D and partial-warp blocks, the cooperative
// launch, the copy and late-handle versions of the helper; on a GPU, the same against the
// emulator.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& groups_and_ranks() {
  return *find_lesson("groups-and-ranks");
}

TEST(GroupsAndRanks, EveryBlockShapeFlattensToTheSameRanks) {
  auto exec = testing::emulator();
  for (Dim3 block :
       {Dim3{64, 1, 1}, Dim3{16, 4, 1}, Dim3{8, 4, 2}, Dim3{50, 1, 1}, Dim3{5, 3, 7}}) {
    RunRequest r = lesson_request(groups_and_ranks());
    r.config.block = block;
    r.config.grid = {3, 1, 1};
    expect_checks_pass(run_lesson(groups_and_ranks(), *exec, r), "block " + block.str());
  }
}

TEST(GroupsAndRanks, ACooperativeLaunchMakesTheGridValid) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(groups_and_ranks(), *exec,
                                   lesson_request(groups_and_ranks(), {{"cooperative", 1}}));
  expect_checks_pass(run, "cooperative=1");
  EXPECT_EQ(run.launches.at(0).header.launch.mode, LaunchMode::Cooperative);
}

TEST(GroupsAndRanks, ACopiedHandleRecordsWhatTheReferenceRecords) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(groups_and_ranks(), *exec, lesson_request(groups_and_ranks(), {{"pass", 1}}));
  expect_checks_pass(run, "pass=1");
  ASSERT_EQ(run.launches.size(), 3u);  // where_am_i, the reference, the copy
  bool compared = false;
  for (const Check& c : run.checks) compared |= c.name.find("the copy records exactly") == 0;
  EXPECT_TRUE(compared) << "the copy is compared with the reference";
}

TEST(GroupsAndRanks, ALateHandleIsOneMoreCreationPerThreadOnTheHelpersLine) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(groups_and_ranks(), *exec, lesson_request(groups_and_ranks(), {{"pass", 2}}));
  expect_checks_pass(run, "pass=2");
  const int line = lines_with(groups_and_ranks().source, "cg::thread_block late =").at(0);
  size_t late = 0;
  for (const Event& e : run.launches.back().events)
    late += e.kind == EventKind::GroupCreate && e.line == line;
  EXPECT_EQ(late, groups_and_ranks().default_config.total_threads());
}

TEST(GroupsAndRanks, RefusesBlocksLargerThanItsRing) {
  auto exec = testing::emulator();
  RunRequest r = lesson_request(groups_and_ranks());
  r.config.block = {32, 32, 2};
  const LessonRun run = run_lesson(groups_and_ranks(), *exec, r);
  ASSERT_FALSE(run.status.ok());
  // lesson.json's rules say it: the limit, and the block's threads.
  EXPECT_NE(run.status.message().find("1 to 1024 threads: got 2048"), std::string::npos)
      << run.status.message();
}

// gpu: every parameter combination on the device, checked and compared with the emulator.
TEST(GroupsAndRanksGpu, EveryVariantMatchesTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  for (int64_t cooperative : {0, 1})
    for (int64_t pass : {0, 1, 2})
      testing::expect_backends_agree(
          *gpu, "groups-and-ranks",
          lesson_request(groups_and_ranks(), {{"cooperative", cooperative}, {"pass", pass}}));
  RunRequest r = lesson_request(groups_and_ranks());
  r.config.block = {50, 1, 1};
  testing::expect_backends_agree(*gpu, "groups-and-ranks", r);
}

}  // namespace
}  // namespace coop::lessons
