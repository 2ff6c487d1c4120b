// The "block-scheduling" lesson end to end: the modelled schedule on the emulator, labelled as
// such and followed by playback, and its checks on a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "device/occupancy/block_schedule.hpp"
#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

TEST(BlockSchedulingLesson, EmulatorShowsTheModelledScheduleLabelledAsSuch) {
  const LessonDef* l = find_lesson("block-scheduling");
  ASSERT_NE(l, nullptr);
  const DeviceProps d = *find_preset("8.7");
  auto exec = make_emu_executor(d);
  RunRequest r = testing::lesson_request(*l);
  r.params["work"] = 10;
  const LessonRun run = run_lesson(*l, *exec, r);
  testing::expect_checks_pass(run);
  ASSERT_EQ(run.launches.size(), 1u);
  const Trace& t = run.launches[0];
  EXPECT_EQ(t.header.schedule.rfind("modelled", 0), 0u) << t.header.schedule;
  const BlockSchedule s = schedule_from_trace(t);
  EXPECT_TRUE(s.modelled);
  EXPECT_EQ(s.blocks.size(), t.header.launch.grid.x);
  // 64 KB per block on 164 KB SMs: 2 blocks per SM, 3 waves over 16 SMs.
  EXPECT_EQ(t.header.launch.grid.x, 2u * 16 * 3);
  for (int peak : peak_resident_per_sm(s)) EXPECT_LE(peak, 2);
  std::set<uint32_t> first_wave;
  for (uint32_t b = 0; b < 16; ++b) first_wave.insert(s.blocks[b].sm);
  EXPECT_EQ(first_wave.size(), 16u) << "the first blocks spread over every SM";
}

TEST(BlockSchedulingLesson, EmulatorPlaybackFollowsTheModelledWaves) {
  // The trace is re-timed into the schedule: while the first wave runs, no later block has
  // started, and every block's events lie within its modelled place.
  const LessonDef* l = find_lesson("block-scheduling");
  ASSERT_NE(l, nullptr);
  auto exec = make_emu_executor(*find_preset("8.7"));
  RunRequest r = testing::lesson_request(*l);
  r.params["work"] = 10;
  const LessonRun run = run_lesson(*l, *exec, r);
  testing::expect_checks_pass(run);
  const Trace& t = run.launches.at(0);
  const BlockSchedule s = schedule_from_trace(t);
  const uint32_t bt = uint32_t(t.header.launch.block.count());
  for (const Event& e : t.events) {
    const ScheduledBlock& b = s.blocks.at(e.thread / bt);
    const double at = s.from_trace_time(e.time);
    ASSERT_GE(at, b.start - 1e-9) << "block " << b.block;
    ASSERT_LE(at, b.end + 1e-9) << "block " << b.block;
  }
}

// gpu: the lesson's checks hold on real hardware (residency measured with %smid).
TEST(BlockSchedulingLessonGpu, ChecksPassOnTheGpu) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonDef* l = find_lesson("block-scheduling");
  ASSERT_NE(l, nullptr);
  const LessonRun run = run_lesson(*l, *gpu, testing::lesson_request(*l));
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  for (const Check& c : run.checks)
    EXPECT_TRUE(c.pass && !c.skipped) << c.name << ": expected " << c.expected << ", got " << c.got;
  for (const auto& [name, value] : run.results)
    std::printf("block-scheduling: %s: %s\n", name.c_str(), value.c_str());
}

}  // namespace
}  // namespace coop::lessons
