// Every lesson ships a trace recorded on a real GPU (assets/traces/<id>.cvt), so a machine without
// one can replay what the hardware did. Each must load, name its lesson, device and date, be
// complete, and keep the hardware's order in its times (recorded with the fixed recorder, which
// states its clock in the header). A lesson written on a machine without a GPU has none yet: it
// is named (the test is skipped, not failed) until scripts/gpu-check.sh records one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "device/trace/time_order.hpp"
#include "device/trace/trace_file.hpp"
#include "lessons/lesson.hpp"

namespace coop::lessons {
namespace {

const std::filesystem::path kShipped = std::filesystem::path(COOPVIZ_SOURCE_DIR) / "assets/traces";

std::filesystem::path trace_path(const std::filesystem::path& dir, const LessonDef& l) {
  return dir / (l.id + ".cvt");
}

// The lessons of the registry without a trace in `dir`, as "a, b".
std::string lessons_without_trace(const std::filesystem::path& dir) {
  std::string ids;
  for (const LessonDef& l : registry())
    if (!std::filesystem::exists(trace_path(dir, l))) ids += (ids.empty() ? "" : ", ") + l.id;
  return ids;
}

TEST(ShippedTraces, EveryLessonShipsARecordedTrace) {
  const std::string missing = lessons_without_trace(kShipped);
  if (!missing.empty())
    GTEST_SKIP() << "no GPU trace shipped yet for: " << missing << " (run scripts/gpu-check.sh "
                 << "traces on a GPU and copy traces/<id>.cvt into assets/traces/)";
}

TEST(ShippedTraces, LessonsWithoutATraceAreNamed) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "coopviz-no-traces";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const LessonDef& first = registry().front();
  const LessonDef& second = registry().at(1);
  EXPECT_EQ(lessons_without_trace(dir).rfind(first.id + ", " + second.id, 0), 0u);
  std::ofstream(trace_path(dir, first)) << "";
  const std::string missing = lessons_without_trace(dir);
  EXPECT_EQ(missing.find(first.id + ","), std::string::npos) << missing;
  EXPECT_EQ(missing.rfind(second.id, 0), 0u) << missing;
  std::filesystem::remove_all(dir);
}

TEST(ShippedTraces, EachShippedTraceIsComplete) {
  for (const LessonDef& l : registry()) {
    const std::filesystem::path path = trace_path(kShipped, l);
    if (!std::filesystem::exists(path)) continue;  // named by EveryLessonShipsARecordedTrace
    auto traces = load_traces(path.string());
    ASSERT_TRUE(traces) << traces.message();
    ASSERT_FALSE(traces->empty()) << l.id;
    for (const Trace& t : *traces) {
      EXPECT_EQ(t.header.lesson, l.id);
      EXPECT_EQ(t.header.backend, Backend::Gpu) << l.id << ": shipped traces come from a GPU";
      EXPECT_FALSE(t.header.device.name.empty()) << l.id;
      EXPECT_EQ(t.header.recorded_at.size(), 20u) << l.id << ": " << t.header.recorded_at;
      EXPECT_EQ(t.dropped(), 0u) << l.id << ", " << t.header.kernel;
      EXPECT_FALSE(t.header.source.empty()) << l.id;
    }
  }
}

// The views draw these traces by time: no thread may be shown leaving a barrier before the last
// one arrived, or doing something before what it did earlier. A trace recorded before the
// recorder read departures after the barrier released (or by a build that says nothing of its
// clock) fails here.
TEST(ShippedTraces, TimesKeepBarrierAndThreadOrder) {
  for (const LessonDef& l : registry()) {
    const std::filesystem::path path = trace_path(kShipped, l);
    if (!std::filesystem::exists(path)) continue;
    auto traces = load_traces(path.string());
    ASSERT_TRUE(traces) << l.id << ": " << traces.message();
    for (const Trace& t : *traces) {
      EXPECT_GT(t.header.clock_resolution_ns, 0u) << l.id << ", " << t.header.kernel;
      EXPECT_NE(t.header.clock.find("%globaltimer"), std::string::npos) << l.id;
      const TimeOrderReport r = check_time_order(t);
      EXPECT_TRUE(r.ok()) << l.id << ", " << t.header.kernel << ": " << r.summary() << "; "
                          << r.first_early << r.first_out_of_order;
    }
  }
}

}  // namespace
}  // namespace coop::lessons
