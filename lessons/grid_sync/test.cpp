// The grid-sync lesson (grid_sync.cu, run as a program): every final step against the CPU, the
// refusal of one block too many, the seed's tile bound, and the hazard variant reported by the
// emulator.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::check_named;
using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& grid_lesson() {
  return *find_lesson("grid-sync");
}

TEST(GridSync, EveryFinalStepMatchesTheCpuOnManyShapes) {
  ASSERT_NE(find_lesson("grid-sync"), nullptr);
  auto exec = testing::emulator();
  for (int64_t step : {0, 1, 2})
    for (auto [grid, block] : {std::pair{8u, 256u}, {40u, 64u}, {3u, 1024u}, {5u, 32u}})
      expect_checks_pass(
          run_lesson(grid_lesson(), *exec,
                     lesson_request(grid_lesson(), {{"final_step", step}}, grid, block)));
}

TEST(GridSync, OneBlockTooManyIsRefusedWithTheLaunchCheck) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(grid_lesson(), *exec, lesson_request(grid_lesson()));
  expect_checks_pass(run);
  // The emulated H100-like device: 8 blocks of 256 threads per SM (the compiler's 29 registers
  // and 4 KB of shared memory leave warps the limit), 132 SMs.
  EXPECT_EQ(testing::result_of(run, "largest cooperative grid"), "8 x 132 SMs = 1056 blocks");
  EXPECT_NE(testing::result_of(run, "resident blocks per SM").find("4096 B static shared memory"),
            std::string::npos)
      << testing::result_of(run, "resident blocks per SM");
  const Check* refused = check_named(run, "a grid of 1057 blocks is refused");
  ASSERT_NE(refused, nullptr);
  EXPECT_TRUE(refused->pass);
  EXPECT_TRUE(refused->got.starts_with("cudaErrorCooperativeLaunchTooLarge")) << refused->got;
  ASSERT_EQ(run.launches.size(), 1u) << "the refused launch leaves no trace";
}

TEST(GridSync, TheHazardIsReportedAtTheGridSyncLine) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(grid_lesson(), *exec, lesson_request(grid_lesson(), {{"launch", 1}}));
  expect_checks_pass(run);
  const Check* refused = check_named(run, "the emulator refuses grid.sync() in a normal launch");
  ASSERT_NE(refused, nullptr);
  EXPECT_TRUE(refused->pass) << refused->got;
  const int line = lines_with(grid_lesson().source, "grid.sync();").at(0);
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_FALSE(run.launches[0].events.empty()) << "the partial trace is kept";
  // The thread the emulator stopped is recorded stopped on that line, so the views can show it.
  int faults = 0;
  for (const Event& e : run.launches[0].events)
    if (e.kind == EventKind::Fault) {
      ++faults;
      EXPECT_EQ(e.line, line);
      EXPECT_TRUE(e.flags & kFlagStuck);
    }
  EXPECT_EQ(faults, 1);
}

// gpu: every final step with 1024-thread blocks on the device, traces equal to the emulator's;
// the largest cooperative grid launches; the hazard is refused before launching.
TEST(GridSyncGpu, SeedBoundAndLargestGridOnTheDevice) {
  COOP_GPU_OR_SKIP(gpu);
  auto emu = make_emu_executor(gpu->device());
  for (int64_t step : {0, 1, 2}) {
    const RunRequest r = lesson_request(grid_lesson(), {{"final_step", step}}, 16, 1024);
    const LessonRun on_gpu = run_lesson(grid_lesson(), *gpu, r);
    const LessonRun on_emu = run_lesson(grid_lesson(), *emu, r);
    expect_checks_pass(on_gpu, "gpu: ");
    expect_checks_pass(on_emu, "emu: ");
    const Check* largest = check_named(on_gpu, "the largest cooperative grid");
    ASSERT_NE(largest, nullptr);
    EXPECT_TRUE(largest->pass && !largest->skipped) << largest->got;
    testing::expect_same_traces(on_gpu, on_emu);
  }
  const LessonRun hazard =
      run_lesson(grid_lesson(), *gpu, lesson_request(grid_lesson(), {{"launch", 1}}));
  EXPECT_FALSE(hazard.status.ok());
  EXPECT_NE(hazard.status.message().find("only on the emulator"), std::string::npos);
}

}  // namespace
}  // namespace coop::lessons
