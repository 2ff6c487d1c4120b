// Every lesson ships a trace recorded on a real GPU (assets/traces/<id>.cvt), so a machine without
// one can replay what the hardware did. Each must load, name its lesson, device and date, be
// complete, and keep the hardware's order in its times (recorded with the fixed recorder, which
// states its clock in the header).
#include <gtest/gtest.h>

#include <filesystem>

#include "device/trace/time_order.hpp"
#include "device/trace/trace_file.hpp"
#include "lessons/lesson.hpp"

namespace coop::lessons {
namespace {

TEST(ShippedTraces, EveryLessonHasACompleteGpuTrace) {
  for (const LessonDef& l : registry()) {
    const std::string path = std::string(COOPVIZ_SOURCE_DIR) + "/assets/traces/" + l.id + ".cvt";
    ASSERT_TRUE(std::filesystem::exists(path)) << l.id << ": no recorded GPU trace at " << path;
    auto traces = load_traces(path);
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
    auto traces = load_traces(std::string(COOPVIZ_SOURCE_DIR) + "/assets/traces/" + l.id + ".cvt");
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
