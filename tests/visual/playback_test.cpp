// Playback over a synthetic block reduction: stepping by event and by barrier phase, playing,
// jumping to a line, and the status line.
#include <gtest/gtest.h>

#include "visual/playback.hpp"
#include "visual/synthetic_trace.hpp"

namespace coop::visual {
namespace {

TimelineModel small_model(uint32_t rounds = 2) {
  SyntheticTraceSpec spec;
  spec.blocks = 2;
  spec.block_threads = 64;
  spec.rounds = rounds;
  return TimelineModel(make_synthetic_trace(spec));
}

TEST(Playback, StepsByEventAndClamps) {
  const TimelineModel m = small_model();
  PlaybackState p;
  step_events(p, m, 5);
  EXPECT_EQ(p.cursor, 5u);
  EXPECT_EQ(current_position(p), 4);
  step_events(p, m, -10);
  EXPECT_EQ(p.cursor, 0u);
  EXPECT_EQ(current_position(p), -1);
  step_events(p, m, int64_t(m.size()) + 7);
  EXPECT_EQ(p.cursor, m.size());
}

TEST(Playback, StepsPhaseByPhaseThroughEveryBarrier) {
  const TimelineModel m = small_model(2);
  // Two blocks, two rounds of two syncs: four phases per block.
  ASSERT_EQ(m.phase_ends().size(), 8u);
  PlaybackState p;
  for (size_t k = 1; k <= m.phase_ends().size(); ++k) {
    step_phases(p, m, 1);
    EXPECT_EQ(p.cursor, m.phase_ends()[k - 1] + 1);
    EXPECT_EQ(phases_done(m, p.cursor), k);
  }
  step_phases(p, m, 1);
  EXPECT_EQ(p.cursor, m.size()) << "after the last phase: the end";
  step_phases(p, m, -1);
  EXPECT_EQ(p.cursor, m.phase_ends().back() + 1);
  step_phases(p, m, -1);
  EXPECT_EQ(p.cursor, m.phase_ends()[6] + 1) << "back from a phase end: the previous one";
  step_events(p, m, 3);  // inside the next phase
  step_phases(p, m, -1);
  EXPECT_EQ(p.cursor, m.phase_ends()[6] + 1) << "back from inside a phase: its start";
  step_phases(p, m, -100);
  EXPECT_EQ(p.cursor, 0u);
}

TEST(Playback, PlaysAtItsRateAndStopsOrLoops) {
  const TimelineModel m = small_model();
  PlaybackState p;
  p.playing = true;
  const double rate = events_per_second(m);
  EXPECT_TRUE(advance(p, m, 10.0 / rate));
  EXPECT_NEAR(double(p.cursor), 10.0, 1.0);
  p.speed = 2.0f;
  const size_t before = p.cursor;
  advance(p, m, 10.0 / rate);
  EXPECT_NEAR(double(p.cursor - before), 20.0, 1.0);
  advance(p, m, 1e6);
  EXPECT_EQ(p.cursor, m.size());
  EXPECT_FALSE(p.playing) << "stops at the end";
  p.playing = true;
  p.loop = true;
  advance(p, m, 1.0 / rate);
  EXPECT_LT(p.cursor, 5u) << "loop starts over";
  EXPECT_TRUE(p.playing);
}

TEST(Playback, JumpsToALineAndTheEndOfItsMoment) {
  const TimelineModel m = small_model();
  const size_t shfl = find_next_on_line(m, 0, 12);
  ASSERT_LT(shfl, m.size());
  EXPECT_EQ(m.at(shfl).kind, EventKind::Collective);
  for (size_t pos = 0; pos < shfl; ++pos) EXPECT_NE(m.at(pos).line, 12);
  const size_t end = end_of_moment(m, shfl);
  EXPECT_GT(end, shfl);
  for (size_t pos = shfl; pos < end; ++pos) EXPECT_EQ(m.at(pos).time, m.at(shfl).time);
  if (end < m.size()) {
    EXPECT_NE(m.at(end).time, m.at(shfl).time);
  }
  EXPECT_EQ(find_next_on_line(m, 0, 999), m.size());
}

TEST(Playback, StatusCountsTimeFromTheFirstEvent) {
  SyntheticTraceSpec spec;
  spec.blocks = 2;
  spec.block_threads = 64;
  Trace emu_trace = make_synthetic_trace(spec);
  // The same events as a GPU records them: global-timer nanoseconds, the time of day.
  Trace gpu_trace = emu_trace;
  gpu_trace.header.backend = Backend::Gpu;
  constexpr uint64_t kTimeOfDay = 1795317231081112224ull;
  for (Event& e : gpu_trace.events) e.time += kTimeOfDay;
  const TimelineModel emu(std::move(emu_trace)), gpu(std::move(gpu_trace));
  PlaybackState p;
  EXPECT_EQ(playback_status(emu, p).find("t="), std::string::npos) << "nothing shown yet";
  seek(p, emu, emu.size());
  const std::string span = std::to_string(emu.at(emu.size() - 1).time - emu.at(0).time);
  const std::string on_emu = playback_status(emu, p), on_gpu = playback_status(gpu, p);
  EXPECT_NE(on_emu.find("event " + std::to_string(emu.size()) + "/"), std::string::npos) << on_emu;
  EXPECT_TRUE(on_emu.ends_with("t=" + span)) << on_emu;
  EXPECT_TRUE(on_gpu.ends_with("t=" + span + " ns")) << on_gpu;
  seek(p, emu, 1);
  EXPECT_TRUE(playback_status(gpu, p).ends_with("t=0 ns")) << playback_status(gpu, p);
}

}  // namespace
}  // namespace coop::visual
