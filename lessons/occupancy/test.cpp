// The "occupancy" lesson end to end: every example on the emulator, the compiler's register
// caps, and its checks on a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

TEST(OccupancyLesson, ChecksPassOnTheEmulatorForEveryExample) {
  const LessonDef* l = find_lesson("occupancy");
  ASSERT_NE(l, nullptr);
  // A small device (16 SMs) keeps the emulated grids small.
  auto exec = make_emu_executor(*find_preset("8.7"));
  for (int example : {0, 1, 2, 3}) {
    RunRequest r = testing::lesson_request(*l);
    r.params["example"] = example;
    r.params["work"] = 50;
    r.config.block = {128, 1, 1};
    const LessonRun run = run_lesson(*l, *exec, r);
    testing::expect_checks_pass(run);
    const auto skipped = std::count_if(run.checks.begin(), run.checks.end(),
                                       [](const Check& c) { return c.skipped; });
    EXPECT_EQ(skipped, 1) << "only the residency measurement needs a GPU";
  }
}

TEST(OccupancyLesson, ReportsTheCompilersRegisterCaps) {
  const LessonDef* l = find_lesson("occupancy");
  auto exec = testing::emulator();
  RunRequest r = testing::lesson_request(*l);
  r.params["example"] = 2;
  r.params["work"] = 10;
  r.params["waves"] = 1;
  const LessonRun run = run_lesson(*l, *exec, r);
  testing::expect_checks_pass(run);
  int caps = 0;
  for (const auto& [name, value] : run.results)
    if (name.rfind("many_live_values, --maxrregcount", 0) == 0) {
      ++caps;
      EXPECT_NE(value.find("spilled"), std::string::npos) << value;
    }
  EXPECT_EQ(caps, 3);  // 32, 48 and 64
}

// gpu: the lesson's checks hold on real hardware (residency measured with %smid).
TEST(OccupancyLessonGpu, ChecksPassOnTheGpu) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonDef* l = find_lesson("occupancy");
  ASSERT_NE(l, nullptr);
  for (int example : {1, 2, 3}) {
    RunRequest r = testing::lesson_request(*l, {{"example", example}});
    const LessonRun run = run_lesson(*l, *gpu, r);
    ASSERT_TRUE(run.status.ok()) << run.status.message();
    for (const Check& c : run.checks)
      EXPECT_TRUE(c.pass && !c.skipped) << "example " << example << ": " << c.name << ": expected "
                                        << c.expected << ", got " << c.got;
    for (const auto& [name, value] : run.results)
      std::printf("occupancy example %d: %s: %s\n", example, name.c_str(), value.c_str());
  }
}

}  // namespace
}  // namespace coop::lessons
