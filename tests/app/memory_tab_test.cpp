// The Memory tab's one-request view on the memory-access lesson, driven as the window drives it
// (no display needed): each step opens it on the request its text is about, and the view's
// arrows and access picker move through the launch's requests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/gui/step_report.hpp"
#include "app/gui/tab_memory.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

const lessons::LessonDef& memory_access() {
  return *lessons::find_lesson("memory-access");
}

std::string line_of(std::string_view snippet) {
  return std::to_string(lessons::lines_with(memory_access().source, snippet).at(0));
}

TEST(MemoryTab, EachStepOpensTheRequestItsTextIsAbout) {
  Result<std::vector<StepReport>> reports = report_lesson_steps("memory-access", 300);
  ASSERT_TRUE(reports.ok()) << reports.message();
  const std::string load = "line " + line_of("// the strided load") + ", global load: ";
  const std::vector<std::string> expected = {
      load + "4 sectors",
      load + "8 sectors",
      load + "32 sectors",
      "line " + line_of("// row write, unpadded") + ", shared store: 1-way",
      "line " + line_of("// column read, unpadded") + ", shared load: 32-way",
      "line " + line_of("// column read, padded") + ", shared load: 1-way",
      "line " + line_of("// every lane reads the same word") + ", shared load: 1-way",
  };
  ASSERT_EQ(reports->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((*reports)[i].memory_request, expected[i]) << "step " << i + 1;
    EXPECT_EQ(step_view_problems((*reports)[i]), "ok") << "step " << i + 1;
  }
}

TEST(MemoryTab, ArrowsAndThePickerMoveThroughTheRequests) {
  GuiApp app;
  app.backend = BackendRequest::Emu;
  app.select_lesson(int(&memory_access() - lessons::registry().data()), 0);
  app.select_step(4, 0);  // the unpadded column read
  ASSERT_TRUE(app.wait_for_runs(300));
  visual::RequestBrowser* b = request_browser(app);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(b->recorded);
  const MemoryRequest* r = b->picked();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->block, 0u);
  EXPECT_EQ(r->warp, 0u);
  EXPECT_EQ(visual::request_label(*r), "block 0, warp 0, its 1st execution");
  // The next request is warp 1's: its column is y = 1, all in bank 1, still 32-way.
  b->step(1);
  r = b->picked();
  EXPECT_EQ(r->warp, 1u);
  const RequestLayout next = layout_request(*r);
  EXPECT_EQ(next.ways, 32u);
  EXPECT_EQ(next.lanes.at(7).bank, 1u);
  // Arrows stop at the ends.
  b->step(-5);
  EXPECT_EQ(b->index, 0u);
  b->step(1 << 20);
  EXPECT_EQ(b->index, b->sites[size_t(b->site)].requests.size() - 1);
  // The picker: the global load on the row-write line, 4 sectors per warp.
  const std::string row = line_of("// row write, unpadded");
  int global_row = -1;
  for (size_t s = 0; s < b->sites.size(); ++s)
    if (visual::site_label(b->sites[s]) == "line " + row + ", global load") global_row = int(s);
  ASSERT_GE(global_row, 0);
  b->pick_site(global_row);
  EXPECT_EQ(b->index, 0u);
  EXPECT_EQ(layout_request(*b->picked()).sectors.size(), 4u);
  // Playback moving on follows the request the moment makes; staying put keeps the pick.
  request_browser(app);
  EXPECT_EQ(b->site, global_row);
}

// Without the lesson's ncu.json the tab says that nothing was measured; with one, it shows the
// shown launch's rows and the GPU they came from.
TEST(MemoryTab, GpuCountersAreShownOrSaidToBeMissing) {
  lessons::LessonDef l = memory_access();
  l.gpu_counters = "";
  GpuCountersShown shown = gpu_counters_for(l, "strided_read", 2);
  EXPECT_TRUE(shown.rows.empty());
  EXPECT_NE(shown.message.find("Not measured on a GPU yet"), std::string::npos) << shown.message;

  LaunchComparison c{"strided_read", 2, true, {}};
  c.rows.push_back(CounterRow{"global load sectors per request", 8, 8.0, true, ""});
  const std::string json = comparison_json({c}, "memory-access", "NVIDIA H100", "now").dump();
  l.gpu_counters = json;
  shown = gpu_counters_for(l, "strided_read", 2);
  ASSERT_EQ(shown.rows.size(), 1u);
  EXPECT_EQ(shown.device, "NVIDIA H100");
  EXPECT_EQ(shown.rows[0].ncu, 8.0);
  shown = gpu_counters_for(l, "strided_read", 3);
  EXPECT_NE(shown.message.find("strided_read (launch 3) was not profiled"), std::string::npos)
      << shown.message;
  l.gpu_counters = "{}";
  EXPECT_NE(gpu_counters_for(l, "strided_read", 2).message.find("cannot be read"),
            std::string::npos);
}

}  // namespace
}  // namespace coop::app
