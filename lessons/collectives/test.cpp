// The collectives lesson beyond the registry's checks: other shapes and inputs, invoke_one's
// choice moving with the emulator's seed, the layout constants the CPU side mirrors, and on a
// GPU the timing results.
#include <gtest/gtest.h>

#include <set>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using coop::testing::expect_checks_pass;
using coop::testing::request_with;
using coop::testing::result_of;

const LessonDef& collectives() {
  const LessonDef* l = find_lesson("collectives");
  EXPECT_NE(l, nullptr);
  return *l;
}

TEST(Collectives, ChecksPassForOtherShapesAndInputs) {
  auto exec = coop::testing::emulator();
  for (uint32_t block : {32u, 96u, 256u})
    for (int64_t data : {0, 7, 12345}) {
      const LessonRun run =
          run_lesson(collectives(), *exec,
                     request_with(collectives(), {{"data", data}}, {3, 1, 1}, {block, 1, 1}));
      expect_checks_pass(run, "block " + std::to_string(block) + ", data " + std::to_string(data));
      EXPECT_EQ(run.launches.size(), 6u);
    }
}

// The seed-0 emulator picks rank 0; other seeds pick other lanes, and different ones.
TEST(Collectives, InvokeOneChoiceMovesWithTheSeed) {
  auto exec = coop::testing::emulator();
  RunRequest r = request_with(collectives(), {}, {4, 1, 1}, {128, 1, 1});
  std::set<std::string> choices;
  for (uint64_t seed : {0, 3, 11}) {
    r.seed = seed;
    const LessonRun run = run_lesson(collectives(), *exec, r);
    expect_checks_pass(run, "seed " + std::to_string(seed));
    const std::string chose = result_of(run, "invoke_one chose, per tile");
    if (seed == 0) EXPECT_EQ(chose, "0 0 0 0 0 0 0 0 ...");
    choices.insert(chose);
  }
  EXPECT_EQ(choices.size(), 3u) << "three seeds, three different sets of choices";
}

// The trace records, for every lane, which rank invoke_one chose; exactly one lane per tile and
// call is marked as the one that ran.
TEST(Collectives, TraceMarksOneChosenLanePerTile) {
  auto exec = coop::testing::emulator();
  RunRequest r = request_with(collectives());
  r.seed = 5;
  const LessonRun run = run_lesson(collectives(), *exec, r);
  ASSERT_TRUE(run.status.ok());
  const Trace& t = run.launches.at(2);
  EXPECT_EQ(t.header.kernel, "one_for_all");
  size_t events = 0, ran = 0;
  for (const Event& e : t.events) {
    if (e.kind != EventKind::InvokeOne) continue;
    ++events;
    ran += e.a;
    EXPECT_EQ(e.a, uint64_t(e.rank == e.extra));
  }
  const size_t lanes = r.config.total_threads(), calls = 2 * lanes / 32;
  EXPECT_EQ(events, 2 * lanes);
  EXPECT_EQ(ran, calls);
}

TEST(Collectives, CpuLayoutMatchesTheKernelFile) {
  EXPECT_FALSE(lines_with(collectives().source, "constexpr int kOps = 7;").empty());
  EXPECT_FALSE(lines_with(collectives().source, "constexpr int kMaxCount = 4;").empty());
}

TEST(Collectives, RejectsPartialTilesByName) {
  auto exec = coop::testing::emulator();
  const LessonRun run =
      run_lesson(collectives(), *exec, request_with(collectives(), {}, {2, 1, 1}, {48, 1, 1}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("48"), std::string::npos) << run.status.message();
}

TEST(Collectives, TimingIsSkippedWithAReasonOnTheEmulator) {
  auto exec = coop::testing::emulator();
  const LessonRun run = run_lesson(collectives(), *exec, request_with(collectives()));
  EXPECT_EQ(testing::skipped_checks(run), 1u);
  EXPECT_EQ(result_of(run, "warp collectives per lane: shfl_xor loop"), "5");
  EXPECT_EQ(result_of(run, "warp collectives per lane: cg::reduce, 4-byte"), "1");
}

// gpu: the timed launches run, their results are right, and the times are reported.
TEST(CollectivesGpu, TimesTheHardwareReduceAgainstSoftware) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonRun run =
      run_lesson(collectives(), *gpu, request_with(collectives(), {{"rounds", 64}}));
  expect_checks_pass(run, "gpu");
  EXPECT_EQ(testing::skipped_checks(run), 0u);
  for (const char* way : {"cg::reduce, 4-byte", "shfl_xor loop", "cg::reduce, 8-byte"})
    EXPECT_NE(result_of(run, std::string("time: ") + way), "") << way;
  EXPECT_NE(result_of(run, "speed-up of the hardware reduce over the shfl_xor loop"), "");
  std::cout << "[ gpu      ] ";
  for (const auto& [k, v] : run.results)
    if (k.rfind("time", 0) == 0 || k.rfind("speed", 0) == 0 || k.rfind("invoke_one", 0) == 0)
      std::cout << k << ": " << v << "; ";
  std::cout << "\n";
}

}  // namespace
}  // namespace coop::lessons
