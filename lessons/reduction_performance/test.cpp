// The reduction-performance lesson (reduction_performance.cu, run as a program): every kernel's
// sum within its rounding bound, one kernel at a time as the steps ask, the benchmark's summary
// the runner adds, and the blocks a kernel is not written for refused with the kernel's reason.
// Its kernels at other sizes and grids are the benchmark's tests (tests/app/reduce_*_test.cpp).
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "lessons/program_lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

constexpr size_t kKernels = 12;

const LessonDef& reduction_lesson() {
  return *find_lesson("reduction-performance");
}

TEST(ReductionPerformance, EveryKernelsSumIsWithinItsBoundAndTheBenchmarkIsSummed) {
  ASSERT_NE(find_lesson("reduction-performance"), nullptr);
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(reduction_lesson(), *exec, lesson_request(reduction_lesson()));
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  expect_checks_pass(run);
  ASSERT_EQ(run.launches.size(), kKernels);
  EXPECT_EQ(run.launches.front().header.kernel, "seed_atomic");
  EXPECT_EQ(run.launches.back().header.kernel, "tuned");
  size_t sums = 0;
  for (const Check& c : run.checks)
    sums += c.name.ends_with(": sum within rounding of the exact sum");
  EXPECT_EQ(sums, kKernels);
  ASSERT_FALSE(run.results.empty());
  EXPECT_EQ(run.results.back().first, kBenchmarkResult) << "the runner ends with the benchmark";
  EXPECT_FALSE(run.results.back().second.empty());
}

TEST(ReductionPerformance, OneKernelAtATimeAsTheStepsAsk) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(reduction_lesson(), *exec, lesson_request(reduction_lesson(), {{"variant", 12}}));
  expect_checks_pass(run);
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].header.kernel, "tuned");
  EXPECT_EQ(run.launches[0].header.launch.grid.x, 4u) << "16 elements a thread, 128 threads";
  for (const Step& s : reduction_lesson().steps) {
    for (const std::string& snippet : s.code)
      EXPECT_FALSE(lines_with(reduction_lesson().source, snippet).empty())
          << s.title << ": " << snippet;
    EXPECT_NE(s.params.at("variant"), 0) << s.title << " should show one kernel";
  }
}

TEST(ReductionPerformance, ABlockTheKernelIsNotWrittenForIsRefused) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(reduction_lesson(), *exec,
                                   lesson_request(reduction_lesson(), {{"variant", 6}}, 1, 96));
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("sequential halves the block each round, so it needs a "
                                      "power-of-two block: got 96"),
            std::string::npos)
      << run.status.message();
}

// gpu: the traced small-n run with cub::DeviceReduce::Sum's check, on the real device.
TEST(ReductionPerformanceGpu, EveryKernelAndCubPassOnTheGpu) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonRun run = run_lesson(reduction_lesson(), *gpu, lesson_request(reduction_lesson()));
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  expect_checks_pass(run);
  EXPECT_EQ(run.launches.size(), kKernels) << "CUB's own launches are not traced";
  const Check* cub = testing::check_named(run, "cub::DeviceReduce::Sum");
  ASSERT_NE(cub, nullptr);
  EXPECT_TRUE(cub->pass) << cub->got;
}

}  // namespace
}  // namespace coop::lessons
