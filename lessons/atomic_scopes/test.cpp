// The atomic-scopes lesson: scopes and orders in the trace, the litmus test's outcomes on the
// emulator (sequentially consistent: never flag 1 with data 0; several outcomes across the
// repeats, each under its own seed, seed 0's traced launch in lane order), the launch rules; on
// a GPU the histogram
// runs and the forbidden outcome stays absent.
#include <gtest/gtest.h>

#include <iostream>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;
using testing::result_of;

const LessonDef& scopes_lesson() {
  return *find_lesson("atomic-scopes");
}

TEST(AtomicScopes, EveryPartPassesAlone) {
  ASSERT_NE(find_lesson("atomic-scopes"), nullptr);
  auto exec = testing::emulator();
  for (int64_t part = 1; part <= 4; ++part)
    expect_checks_pass(
        run_lesson(scopes_lesson(), *exec, lesson_request(scopes_lesson(), {{"part", part}})));
}

// Seed 0's traced launch runs lanes in order, so every writer finishes first; its repeats run
// under seeds 1 to 32 (lesson.json's vary_repeats), and show the other interleavings.
TEST(AtomicScopes, SeedZeroTracesLanesInOrderAndItsRepeatsVary) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(scopes_lesson(), *exec, lesson_request(scopes_lesson(), {{"part", 3}}));
  expect_checks_pass(run);
  EXPECT_EQ(result_of(run, "traced relaxed, distance 1"),
            "flag 0 data 0: 0, flag 0 data 1: 0, flag 1 data 0: 0, flag 1 data 1: 1024");
  const std::string seen = result_of(run, "relaxed: outcomes produced");
  for (const char* outcome : {"flag 0 data 0", "flag 0 data 1", "flag 1 data 1"})
    EXPECT_NE(seen.find(outcome), std::string::npos) << outcome << " not in " << seen;
}

TEST(AtomicScopes, SeededRepeatsProduceSeveralOutcomesButNeverTheWeakOne) {
  auto exec = testing::emulator();
  for (int64_t distance : {1, 4, 16}) {
    const LessonRun run = run_lesson(scopes_lesson(), *exec,
                                     lesson_request(scopes_lesson(), {{"distance", distance}}, 1));
    expect_checks_pass(run);
    for (const char* order : {"relaxed", "release/acquire"}) {
      const std::string seen = result_of(run, std::string(order) + ": outcomes produced");
      EXPECT_EQ(seen.find("flag 1 data 0"), std::string::npos) << order << ": " << seen;
      EXPECT_NE(seen.find("flag 0 data 0"), std::string::npos) << order << ": " << seen;
      EXPECT_NE(seen.find("flag 1 data 1"), std::string::npos) << order << ": " << seen;
    }
  }
}

// A seeded run's repeats are its own and the same every time, writer and reader in different
// blocks too (a seeded run keeps its blocks on one OS thread).
TEST(AtomicScopes, ASeededRunRepeatsTheSameHistograms) {
  auto exec = testing::emulator();
  const RunRequest r =
      lesson_request(scopes_lesson(), {{"part", 3}, {"distance", 256}, {"runs", 8}}, 3);
  const LessonRun first = run_lesson(scopes_lesson(), *exec, r);
  expect_checks_pass(first);
  EXPECT_EQ(run_lesson(scopes_lesson(), *exec, r).results, first.results);
}

TEST(AtomicScopes, TheTraceCarriesScopesAndOrders) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(scopes_lesson(), *exec, lesson_request(scopes_lesson(), {{"part", 4}}));
  ASSERT_EQ(run.launches.size(), 1u);
  size_t release = 0, acquire = 0, relaxed = 0;
  for (const Event& e : run.launches[0].events) {
    if (e.kind != EventKind::Atomic) continue;
    release += (e.flags & kFlagOrderRelease) != 0;
    acquire += (e.flags & kFlagOrderAcquire) != 0;
    relaxed += (e.flags & kFlagOrderRelaxed) != 0;
  }
  EXPECT_EQ(release, 1024u);  // one flag store per writer
  EXPECT_EQ(acquire, 1024u);  // one flag load per reader
  EXPECT_EQ(relaxed, 2048u);  // the data store and the data load
}

TEST(AtomicScopes, PairsMustTileTheGrid) {
  auto exec = testing::emulator();
  const LessonRun run =
      run_lesson(scopes_lesson(), *exec, lesson_request(scopes_lesson(), {{"distance", 2048}}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("multiple of 4096"), std::string::npos)
      << run.status.message();
}

// gpu: the histogram over many launches; release/acquire never shows the forbidden outcome.
TEST(AtomicScopesGpu, HistogramNeverShowsTheForbiddenOutcome) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonRun run =
      run_lesson(scopes_lesson(), *gpu, lesson_request(scopes_lesson(), {{"runs", 64}}));
  expect_checks_pass(run);
  const std::string seen = result_of(run, "release/acquire: outcomes produced");
  EXPECT_EQ(seen.find("flag 1 data 0"), std::string::npos) << seen;
  EXPECT_FALSE(result_of(run, "relaxed, distance 65536 (GPU, 64 runs)").empty());
  for (const auto& [k, v] : run.results) std::cout << k << ": " << v << "\n";
}

}  // namespace
}  // namespace coop::lessons
