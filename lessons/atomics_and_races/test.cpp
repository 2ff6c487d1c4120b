// The atomics-and-races lesson, an ordinary CUDA program run by coopviz: every experiment on other
// shapes and parameters, the float counter's stuck adds in the trace, the schedule's freedom
// showing up in who survives, the launches it refuses by name, and on a GPU the same traces as
// the emulator (the race analysis on a hand-built trace: tests/lessons/value_claims_test.cpp).
#include <gtest/gtest.h>

#include <iostream>

#include "device/trace/value.hpp"
#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;
using testing::result_of;

const LessonDef& races_lesson() {
  return *find_lesson("atomics-and-races");
}

// Every part in one run of 3 blocks of 96 (the default launch runs in LessonPrograms and in
// the registry's tests), with contention over 7 addresses, which leaves a remainder, and a float
// counter that never reaches 2^24.
TEST(AtomicsAndRaces, EveryPartPassesOnAnotherShape) {
  ASSERT_NE(find_lesson("atomics-and-races"), nullptr);
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(races_lesson(), *exec,
                 lesson_request(races_lesson(), {{"spread", 7}, {"headroom", 5000}}, 3, 96, 5));
  expect_checks_pass(run);
  EXPECT_EQ(result_of(run, "float: unsigned / float counter after 288 adds"),
            "16772504 / 16772504");
  EXPECT_EQ(result_of(run, "contention: atomics per address"), "up to 42 on each of 7 addresses");
  // The race's results come from the trace: the staged race's survivors are blocks.
  EXPECT_FALSE(
      result_of(run, "staged unprotected: blocks whose update survived, in order").empty());
}

TEST(AtomicsAndRaces, TheFloatCounterStopsAt2To24) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(races_lesson(), *exec, lesson_request(races_lesson(), {{"part", 6}}));
  expect_checks_pass(run);
  EXPECT_EQ(result_of(run, "float: unsigned / float counter after 2048 adds"),
            "16779200 / 16777216");
  ASSERT_EQ(run.launches.size(), 1u);
  size_t stuck = 0;
  for (const Event& e : run.launches[0].events)
    stuck += e.value_type == ValueType::F32 && from_bits<float>(e.b) == 16777216.0f;
  EXPECT_EQ(stuck, 2048u - 64u);
}

TEST(AtomicsAndRaces, TheScheduleDecidesWhoSurvives) {
  auto exec = testing::emulator();
  const std::string who = "race: threads whose update survived, in order";
  const LessonRun a =
      run_lesson(races_lesson(), *exec, lesson_request(races_lesson(), {{"part", 1}}, 2, 64, 0));
  const LessonRun b =
      run_lesson(races_lesson(), *exec, lesson_request(races_lesson(), {{"part", 1}}, 2, 64, 7));
  expect_checks_pass(a);
  expect_checks_pass(b);
  EXPECT_FALSE(result_of(a, who).empty());
  EXPECT_NE(result_of(a, who), result_of(b, who));
  const LessonRun c =
      run_lesson(races_lesson(), *exec, lesson_request(races_lesson(), {{"part", 2}}, 2, 64, 7));
  expect_checks_pass(c);
  EXPECT_NE(result_of(c, "atomic: threads in landing order"), "0-127");
}

TEST(AtomicsAndRaces, RejectsShapesByName) {
  auto exec = testing::emulator();
  RunRequest r = lesson_request(races_lesson());
  r.config.grid = {8, 2, 1};
  LessonRun run = run_lesson(races_lesson(), *exec, r);
  EXPECT_NE(run.status.message().find("1D"), std::string::npos) << run.status.message();
  run = run_lesson(races_lesson(), *exec, lesson_request(races_lesson(), {}, 2048, 256));
  EXPECT_NE(run.status.message().find("524288"), std::string::npos) << run.status.message();
}

// gpu: every part, with the timing runs, on the device; traces agree with the emulator's.
TEST(AtomicsAndRacesGpu, TimesContentionAndAgreesWithTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  auto emu = make_emu_executor(gpu->device());
  const RunRequest r = lesson_request(races_lesson());
  const LessonRun on_gpu = run_lesson(races_lesson(), *gpu, r);
  const LessonRun on_emu = run_lesson(races_lesson(), *emu, r);
  expect_checks_pass(on_gpu, "gpu: ");
  expect_checks_pass(on_emu, "emu: ");
  EXPECT_FALSE(result_of(on_gpu, "GPU time, 1048576 atomicAdds on 1 address").empty());
  for (const auto& [k, v] : on_gpu.results) std::cout << k << ": " << v << "\n";
  testing::expect_same_traces(on_gpu, on_emu);
}

}  // namespace
}  // namespace coop::lessons
