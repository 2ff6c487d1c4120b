// Every lesson ships a trace recorded on a real GPU (assets/traces/<id>.cvt), so a machine without
// one can replay what the hardware did. Each must load, name its lesson, device and date, and be
// complete.
#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace coop::lessons
