// The atomics-and-races lesson: each experiment alone and with other parameters, the race
// analysis on a hand-built trace, and the schedule's freedom showing up in who survives.
#include <gtest/gtest.h>

#include <iostream>

#include "device/trace/value.hpp"
#include "lessons/atomics_and_races/race_analysis.hpp"
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

TEST(AtomicsAndRaces, RaceAnalysisFollowsTheValues) {
  // t0 and t1 both read 0; t3 reads t0's 5 and writes 8; t2 reads t1's 7 and writes 10, the
  // final value. Kept: t1 then t2. t3's store was never read; t0's was read only by t3.
  Trace t;
  auto add = [&](EventKind kind, uint32_t thread, int value) {
    Event e{};
    e.kind = kind;
    e.thread = thread;
    e.sequence = uint32_t(t.events.size());
    (kind == EventKind::Load ? e.b : e.a) = to_bits(value);
    t.events.push_back(e);
  };
  add(EventKind::Load, 0, 0);
  add(EventKind::Load, 1, 0);
  add(EventKind::Store, 0, 5);
  add(EventKind::Load, 3, 5);
  add(EventKind::Store, 1, 7);
  add(EventKind::Load, 2, 7);
  add(EventKind::Store, 3, 8);
  add(EventKind::Store, 2, 10);
  const atomics_and_races::RaceReport r = atomics_and_races::analyse_race(t, 10);
  EXPECT_EQ(r.problem, "");
  EXPECT_EQ(r.kept, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(r.lost_unread, (std::vector<uint32_t>{3}));
  EXPECT_EQ(r.lost_later, (std::vector<uint32_t>{0}));
  // A final value nobody wrote is reported, not explained away.
  EXPECT_NE(atomics_and_races::analyse_race(t, 11).problem, "");
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
