// The block-reduce lesson end to end: checks pass on the emulator; on a GPU both backends'
// traces agree on every deterministic field.
#include <gtest/gtest.h>

#include "device/trace/compare.hpp"
#include "lessons/lesson.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

RunRequest request(const LessonDef& l, int64_t tiles, Dim3 grid, Dim3 block) {
  RunRequest r;
  r.config = l.default_config;
  r.config.grid = grid;
  r.config.block = block;
  for (const ParamDef& p : l.params) r.params[p.name] = p.default_value;
  r.params["tiles"] = tiles;
  return r;
}

TEST(BlockReduce, ChecksPassOnTheEmulator) {
  const LessonDef* l = find_lesson("block-reduce");
  ASSERT_NE(l, nullptr);
  auto exec = testing::emulator();
  for (int tiles : {0, 1})
    for (uint32_t block : {32u, 64u, 256u, 1024u}) {
      LessonRun run = run_lesson(*l, *exec, request(*l, tiles, {4, 1, 1}, {block, 1, 1}));
      ASSERT_TRUE(run.status.ok()) << run.status.message();
      for (const Check& c : run.checks) EXPECT_TRUE(c.pass) << c.name << ": " << c.got;
    }
}

TEST(BlockReduce, TraceRecordsRanksAndPhases) {
  const LessonDef* l = find_lesson("block-reduce");
  auto exec = testing::emulator();
  LessonRun run = run_lesson(*l, *exec, request(*l, 0, {2, 1, 1}, {64, 1, 1}));
  ASSERT_TRUE(run.status.ok());
  const Trace& t = run.launches.at(0);
  int creates = 0, barriers = 0;
  uint32_t max_phase = 0;
  for (const Event& e : t.events) {
    if (e.kind == EventKind::GroupCreate) {
      ++creates;
      EXPECT_EQ(e.rank, e.thread % 64);
      EXPECT_EQ(e.group_size, 64u);
      EXPECT_EQ(e.group_id, e.thread / 64);
    }
    if (e.kind == EventKind::Barrier) {
      ++barriers;
      max_phase = std::max(max_phase, e.extra);
      EXPECT_LE(e.time, e.b) << "departure after arrival";
    }
  }
  EXPECT_EQ(creates, 128);
  EXPECT_EQ(barriers, 128 * 12);  // log2(64) rounds, two syncs each
  EXPECT_EQ(max_phase, 12u);
  EXPECT_EQ(t.header.lesson, "block-reduce");
  EXPECT_FALSE(t.header.source.empty());
}

TEST(BlockReduce, RejectsIllegalConfigurationsByName) {
  const LessonDef* l = find_lesson("block-reduce");
  auto exec = testing::emulator();
  LessonRun run = run_lesson(*l, *exec, request(*l, 0, {4, 1, 1}, {96, 1, 1}));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("96"), std::string::npos);
  run = run_lesson(*l, *exec, request(*l, 1, {4, 1, 1}, {16, 1, 1}));
  EXPECT_NE(run.status.message().find("at least 32"), std::string::npos);
}

// gpu: the same lesson on both backends, compared field by field.
TEST(BlockReduceGpu, BackendsAgreeOnEveryDeterministicField) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonDef* l = find_lesson("block-reduce");
  auto emu = make_emu_executor(gpu->device());
  for (int tiles : {0, 1}) {
    const RunRequest r = request(*l, tiles, {16, 1, 1}, {256, 1, 1});
    LessonRun on_gpu = run_lesson(*l, *gpu, r);
    LessonRun on_emu = run_lesson(*l, *emu, r);
    ASSERT_TRUE(on_gpu.status.ok()) << on_gpu.status.message();
    ASSERT_TRUE(on_emu.status.ok()) << on_emu.status.message();
    for (const Check& c : on_gpu.checks) EXPECT_TRUE(c.pass) << "gpu: " << c.name << ": " << c.got;
    const TraceDiff diff = compare_deterministic(on_gpu.launches.at(0), on_emu.launches.at(0));
    EXPECT_TRUE(diff.equal()) << diff.mismatches << " differences, first: "
                              << (diff.examples.empty() ? "" : diff.examples[0]);
    EXPECT_EQ(diff.threads_compared, 16u * 256u);
  }
}

}  // namespace
}  // namespace coop::lessons
