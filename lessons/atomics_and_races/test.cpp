// The atomics-and-races lesson: each experiment alone and with other parameters, and the
// schedule's freedom showing up in who survives (the race analysis on a hand-built trace:
// tests/lessons/trace_claims_test.cpp).
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

const LessonDef& lesson() {
  return *find_lesson("atomics-and-races");
}

TEST(AtomicsAndRaces, EveryPartPassesAloneAndWithOtherShapes) {
  ASSERT_NE(find_lesson("atomics-and-races"), nullptr);
  auto exec = testing::emulator();
  for (int64_t part = 1; part <= 6; ++part) {
    expect_checks_pass(run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", part}})));
    expect_checks_pass(
        run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", part}}, 3, 96, 5)));
  }
  // Contention with a remainder, and a float counter that never reaches 2^24.
  expect_checks_pass(
      run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", 5}, {"spread", 7}})));
  const LessonRun far =
      run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", 6}, {"headroom", 5000}}));
  expect_checks_pass(far);
  EXPECT_EQ(result_of(far, "float: unsigned / float counter after 2048 adds"),
            "16774264 / 16774264");
}

TEST(AtomicsAndRaces, TheFloatCounterStopsAt2To24) {
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", 6}}));
  expect_checks_pass(run);
  EXPECT_EQ(result_of(run, "float: unsigned / float counter after 2048 adds"),
            "16779200 / 16777216");
  size_t stuck = 0;
  for (const Event& e : run.launches.at(0).events)
    stuck += e.value_type == ValueType::F32 && from_bits<float>(e.b) == 16777216.0f;
  EXPECT_EQ(stuck, 2048u - 64u);
}

TEST(AtomicsAndRaces, TheScheduleDecidesWhoSurvives) {
  auto exec = testing::emulator();
  const std::string who = "race: threads whose update survived, in order";
  const LessonRun a =
      run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", 1}}, 2, 64, 0));
  const LessonRun b =
      run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", 1}}, 2, 64, 7));
  expect_checks_pass(a);
  expect_checks_pass(b);
  EXPECT_FALSE(result_of(a, who).empty());
  EXPECT_NE(result_of(a, who), result_of(b, who));
  const LessonRun c =
      run_lesson(lesson(), *exec, lesson_request(lesson(), {{"part", 2}}, 2, 64, 7));
  expect_checks_pass(c);
  EXPECT_NE(result_of(c, "atomic: threads in landing order"), "0-127");
}

TEST(AtomicsAndRaces, RejectsShapesByName) {
  auto exec = testing::emulator();
  RunRequest r = lesson_request(lesson());
  r.config.grid = {8, 2, 1};
  LessonRun run = run_lesson(lesson(), *exec, r);
  EXPECT_NE(run.status.message().find("1D"), std::string::npos);
  run = run_lesson(lesson(), *exec, lesson_request(lesson(), {}, 2048, 256));
  EXPECT_NE(run.status.message().find("524288"), std::string::npos);
}

// gpu: every part, with the timing runs, on the device; traces agree with the emulator's.
TEST(AtomicsAndRacesGpu, TimesContentionAndAgreesWithTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  auto emu = make_emu_executor(gpu->device());
  const RunRequest r = lesson_request(lesson());
  const LessonRun on_gpu = run_lesson(lesson(), *gpu, r);
  const LessonRun on_emu = run_lesson(lesson(), *emu, r);
  expect_checks_pass(on_gpu, "gpu: ");
  expect_checks_pass(on_emu, "emu: ");
  EXPECT_FALSE(result_of(on_gpu, "GPU time, 1048576 atomicAdds on 1 address").empty());
  for (const auto& [k, v] : on_gpu.results) std::cout << k << ": " << v << "\n";
  testing::expect_same_traces(on_gpu, on_emu);
}

}  // namespace
}  // namespace coop::lessons
