// Every step of every lesson, applied as the window applies it, shows what its text promises:
// its moment lies on the lines it highlights, its colouring leaves at most half of the started
// threads grey, its tab has something to show, and the Launch panel shows the launch that ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/backend.hpp"
#include "app/gui/step_report.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

std::vector<std::string> all_lessons() {
  std::vector<std::string> ids;
  for (const lessons::LessonDef& l : lessons::registry()) ids.push_back(l.id);
  return ids;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class LessonSteps : public ::testing::TestWithParam<std::string> {};

TEST_P(LessonSteps, EveryStepShowsWhatItsTextSays) {
  Result<std::vector<StepReport>> reports = report_lesson_steps(GetParam(), 300);
  ASSERT_TRUE(reports.ok()) << reports.message();
  const lessons::LessonDef& l = *lessons::find_lesson(GetParam());
  ASSERT_EQ(reports->size(), l.steps.size());
  for (const StepReport& r : *reports) {
    const std::string where = r.lesson + " step " + std::to_string(r.step) + " (" + r.title + ")";
    EXPECT_EQ(step_view_problems(r), "ok") << where;
    EXPECT_EQ(r.panel_launch.grid, r.ran_launch.grid) << where;
    EXPECT_EQ(r.panel_launch.block, r.ran_launch.block) << where;
  }
}

INSTANTIATE_TEST_SUITE_P(All, LessonSteps, ::testing::ValuesIn(all_lessons()), param_name);

// The same promises with every step's run on the GPU: a step's text may not rest on what only the
// emulator's schedule shows.
class LessonStepsOnGpu : public ::testing::TestWithParam<std::string> {};

TEST_P(LessonStepsOnGpu, EveryStepShowsWhatItsTextSays) {
  if (!choose_backend(BackendRequest::Gpu)) GTEST_SKIP() << "no GPU here";
  Result<std::vector<StepReport>> reports =
      report_lesson_steps(GetParam(), 300, BackendRequest::Gpu);
  ASSERT_TRUE(reports.ok()) << reports.message();
  ASSERT_EQ(reports->size(), lessons::find_lesson(GetParam())->steps.size());
  for (const StepReport& r : *reports) {
    const std::string where = r.lesson + " step " + std::to_string(r.step) + " (" + r.title + ")";
    // What only the emulator shows (every load and store, a variant that breaks CUDA's rules on
    // purpose) runs there, and the banner says so.
    if (r.backend != "gpu") EXPECT_NE(r.banner.find("Shown from the CPU emulator"), std::string::npos) << where;
    EXPECT_EQ(step_view_problems(r), "ok") << where;
  }
}

INSTANTIATE_TEST_SUITE_P(All, LessonStepsOnGpu, ::testing::ValuesIn(all_lessons()), param_name);

}  // namespace
}  // namespace coop::app
