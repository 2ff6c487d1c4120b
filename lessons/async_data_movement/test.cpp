// The async-data-movement lesson beyond the registry's checks: other block sizes and tile
// counts, the order of copies and waits that makes the overlap, the launch rules.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using coop::testing::expect_checks_pass;
using coop::testing::request_with;
using coop::testing::result_of;

const LessonDef& async_lesson() {
  const LessonDef* l = find_lesson("async-data-movement");
  EXPECT_NE(l, nullptr);
  return *l;
}

TEST(AsyncDataMovement, ChecksPassForOtherBlocksAndTileCounts) {
  auto exec = coop::testing::emulator();
  for (uint32_t block : {32u, 100u, 256u})
    for (int64_t tiles : {1, 2, 7}) {
      const LessonRun run =
          run_lesson(async_lesson(), *exec,
                     request_with(async_lesson(), {{"tiles", tiles}}, {3, 1, 1}, {block, 1, 1}));
      expect_checks_pass(run,
                         "block " + std::to_string(block) + ", tiles " + std::to_string(tiles));
      EXPECT_EQ(run.launches.size(), 3u);
    }
}

// Double buffering: the copy of tile k + 1 is issued before the wait for tile k.
TEST(AsyncDataMovement, NextCopyIsIssuedBeforeTheWaitForThisTile) {
  auto exec = coop::testing::emulator();
  const LessonRun run =
      run_lesson(async_lesson(), *exec, request_with(async_lesson(), {{"tiles", 3}}));
  expect_checks_pass(run, "tiles 3");
  EXPECT_EQ(result_of(run, "thread 0's copy calls, in order"),
            "copy, copy, wait_prior<1>, copy, wait_prior<1>, wait");
}

TEST(AsyncDataMovement, RejectsBlocksLargerThanTheBuffersByName) {
  auto exec = coop::testing::emulator();
  const LessonRun run =
      run_lesson(async_lesson(), *exec, request_with(async_lesson(), {}, {1, 1, 1}, {512, 1, 1}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("512"), std::string::npos) << run.status.message();
  EXPECT_NE(run.status.message().find("256"), std::string::npos) << run.status.message();
}

TEST(AsyncDataMovement, CpuLayoutMatchesTheKernelFile) {
  EXPECT_FALSE(lines_with(async_lesson().source, "constexpr int kMaxBlock = 256;").empty());
  EXPECT_FALSE(lines_with(async_lesson().source, "constexpr int kPerThread = 4;").empty());
}

// gpu: both piece sizes give the right sums in the timed launches, and both are timed.
TEST(AsyncDataMovementGpu, TimesFourAgainstSixteenBytePieces) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonRun run = run_lesson(
      async_lesson(), *gpu, request_with(async_lesson(), {{"tiles", 16}}, {4, 1, 1}, {256, 1, 1}));
  expect_checks_pass(run, "gpu");
  EXPECT_EQ(testing::skipped_checks(run), 0u);
  EXPECT_NE(result_of(run, "time, 4-byte pieces"), "");
  EXPECT_NE(result_of(run, "time, 16-byte pieces"), "");
  std::cout << "[ gpu      ] 4-byte: " << result_of(run, "time, 4-byte pieces")
            << "; 16-byte: " << result_of(run, "time, 16-byte pieces")
            << "; speed-up: " << result_of(run, "speed-up of 16-byte pieces") << "\n";
}

}  // namespace
}  // namespace coop::lessons
