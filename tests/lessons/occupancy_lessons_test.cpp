// The "occupancy" and "block-scheduling" lessons end to end, and the block-schedule model.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "device/occupancy/block_schedule.hpp"
#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

RunRequest defaults(const LessonDef& l) {
  RunRequest r;
  r.config = l.default_config;
  for (const ParamDef& p : l.params) r.params[p.name] = p.default_value;
  return r;
}

void expect_checks_pass(const LessonRun& run) {
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_FALSE(run.checks.empty());
  for (const Check& c : run.checks)
    EXPECT_TRUE(c.pass || c.skipped) << c.name << ": expected " << c.expected << ", got " << c.got;
}

TEST(OccupancyLesson, ChecksPassOnTheEmulatorForEveryExample) {
  const LessonDef* l = find_lesson("occupancy");
  ASSERT_NE(l, nullptr);
  // A small device (16 SMs) keeps the emulated grids small.
  auto exec = make_emu_executor(*find_preset("8.7"));
  for (int example : {0, 1, 2, 3}) {
    RunRequest r = defaults(*l);
    r.params["example"] = example;
    r.params["work"] = 50;
    r.config.block = {128, 1, 1};
    const LessonRun run = run_lesson(*l, *exec, r);
    expect_checks_pass(run);
    const auto skipped = std::count_if(run.checks.begin(), run.checks.end(),
                                       [](const Check& c) { return c.skipped; });
    EXPECT_EQ(skipped, 1) << "only the residency measurement needs a GPU";
  }
}

TEST(OccupancyLesson, ReportsTheCompilersRegisterCaps) {
  const LessonDef* l = find_lesson("occupancy");
  auto exec = testing::emulator();
  RunRequest r = defaults(*l);
  r.params["example"] = 2;
  r.params["work"] = 10;
  r.params["waves"] = 1;
  const LessonRun run = run_lesson(*l, *exec, r);
  expect_checks_pass(run);
  int caps = 0;
  for (const auto& [name, value] : run.results)
    if (name.rfind("many_live_values, --maxrregcount", 0) == 0) {
      ++caps;
      EXPECT_NE(value.find("spilled"), std::string::npos) << value;
    }
  EXPECT_EQ(caps, 3);  // 32, 48 and 64
}

TEST(BlockSchedulingLesson, EmulatorShowsTheModelledScheduleLabelledAsSuch) {
  const LessonDef* l = find_lesson("block-scheduling");
  ASSERT_NE(l, nullptr);
  const DeviceProps d = *find_preset("8.7");
  auto exec = make_emu_executor(d);
  RunRequest r = defaults(*l);
  r.params["work"] = 10;
  const LessonRun run = run_lesson(*l, *exec, r);
  expect_checks_pass(run);
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
  RunRequest r = defaults(*l);
  r.params["work"] = 10;
  const LessonRun run = run_lesson(*l, *exec, r);
  expect_checks_pass(run);
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

TEST(BlockSchedule, GlobaltimerStampsKeepTheirNanoseconds) {
  // Two blocks on one SM, the second starting 1 ns after the first ended, at a %globaltimer
  // stamp of today (past 2^53 ns): they must not be seen overlapping.
  Trace t;
  t.header.backend = Backend::Gpu;
  const uint64_t now = 1'764'000'000'000'000'123ull;
  auto record = [&](EventKind k, uint32_t block, uint64_t time) {
    Event e{};
    e.kind = k;
    e.group_kind = GroupKind::Block;
    e.group_id = block;
    e.extra = 7;  // the SM
    e.time = time;
    t.events.push_back(e);
  };
  record(EventKind::ThreadBegin, 0, now);
  record(EventKind::ThreadEnd, 0, now + 1000);
  record(EventKind::ThreadBegin, 1, now + 1001);
  record(EventKind::ThreadEnd, 1, now + 2000);
  const BlockSchedule s = schedule_from_trace(t);
  ASSERT_EQ(s.blocks.size(), 2u);
  EXPECT_EQ(s.blocks[0].end, 1000);
  EXPECT_EQ(s.blocks[1].start, 1001);
  EXPECT_EQ(peak_resident_per_sm(s).at(7), 1);
}

TEST(OccupancyLessons, EveryStepPointsAtRealSourceLines) {
  for (const char* id : {"occupancy", "block-scheduling"}) {
    const LessonDef* l = find_lesson(id);
    ASSERT_NE(l, nullptr) << id;
    EXPECT_FALSE(l->text.empty());
    for (const Step& step : l->steps)
      for (const std::string& snippet : step.code)
        EXPECT_FALSE(lines_with(l->source, snippet).empty()) << id << ": " << snippet;
  }
}

TEST(BlockScheduleModel, FillsSlotsAsTheyFree) {
  // 2 SMs x 2 slots, 6 blocks: durations 1, 1, 3, 3, 1, 1.
  const double durations[] = {1, 1, 3, 3, 1, 1};
  const BlockSchedule s = model_block_schedule(2, 2, durations);
  ASSERT_EQ(s.blocks.size(), 6u);
  EXPECT_EQ(s.blocks[0].sm, 0u);  // first wave spreads: 0, 1, 0, 1
  EXPECT_EQ(s.blocks[1].sm, 1u);
  EXPECT_EQ(s.blocks[2].sm, 0u);
  EXPECT_EQ(s.blocks[3].sm, 1u);
  EXPECT_DOUBLE_EQ(s.blocks[4].start, 1);  // takes block 0's slot when it frees
  EXPECT_EQ(s.blocks[4].sm, 0u);
  EXPECT_DOUBLE_EQ(s.blocks[5].start, 1);
  EXPECT_EQ(s.blocks[5].sm, 1u);
  EXPECT_DOUBLE_EQ(s.makespan(), 3);
  EXPECT_EQ(peak_resident_per_sm(s), (std::vector<int>{2, 2}));
}

TEST(BlockScheduleModel, PeakCountsOverlapsOnly) {
  BlockSchedule s;
  s.sm_count = 1;
  s.blocks = {{0, 0, 0, 10}, {1, 0, 10, 20}, {2, 0, 5, 15}};
  EXPECT_EQ(peak_resident_per_sm(s), std::vector<int>{2});  // touching ends do not overlap
  // Drawing rows: block 1 reuses block 0's row, block 2 overlaps both and needs a second one.
  EXPECT_EQ(slots_of_blocks(s), (std::vector<uint32_t>{0, 0, 1}));
}

// gpu: both lessons' checks hold on real hardware (residency measured with %smid).
TEST(OccupancyLessonsGpu, ChecksPassOnTheGpu) {
  COOP_GPU_OR_SKIP(gpu);
  for (const char* id : {"occupancy", "block-scheduling"}) {
    const LessonDef* l = find_lesson(id);
    ASSERT_NE(l, nullptr);
    for (int example : {1, 2, 3}) {
      RunRequest r = defaults(*l);
      if (r.params.count("example")) r.params["example"] = example;
      const LessonRun run = run_lesson(*l, *gpu, r);
      ASSERT_TRUE(run.status.ok()) << id << ": " << run.status.message();
      for (const Check& c : run.checks)
        EXPECT_TRUE(c.pass && !c.skipped) << id << " example " << example << ": " << c.name
                                          << ": expected " << c.expected << ", got " << c.got;
      for (const auto& [name, value] : run.results)
        std::printf("%s example %d: %s: %s\n", id, example, name.c_str(), value.c_str());
      if (!r.params.count("example")) break;
    }
  }
}

}  // namespace
}  // namespace coop::lessons
