// Every step of every lesson, applied as the window applies it, shows what its text promises:
// its moment lies on the lines it highlights, its colouring leaves at most half of the started
// threads grey, its tab has something to show, and the Launch panel shows the launch that ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/backend.hpp"
#include "app/gui/gui_app.hpp"
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

// block-reduce step 2 stands at block 0's 16th and last barrier phase, while the play bar counts
// the phases of the whole launch ("phase 31/128"): the text says which is which, with the play
// bar's total, so that the two numbers on screen do not contradict it.
TEST(StepTexts, BlockReducesPhaseAndThePlayBarAgree) {
  GuiApp app;
  app.backend = BackendRequest::Emu;
  const lessons::LessonDef* l = lessons::find_lesson("block-reduce");
  app.select_lesson(int(l - lessons::registry().data()), 0);
  app.select_step(1, 0);
  ASSERT_TRUE(app.wait_for_runs(300));
  ASSERT_NE(app.model(), nullptr);
  const std::string status = visual::playback_status(*app.model(), app.playback);
  unsigned done = 0, total = 0;
  const size_t at = status.find("phase ");
  ASSERT_NE(at, std::string::npos) << status;
  ASSERT_EQ(std::sscanf(status.c_str() + at, "phase %u/%u", &done, &total), 2) << status;
  const uint64_t blocks = app.model()->launch().grid.count();
  EXPECT_EQ(total, blocks * 16) << "16 phases in each block: " << status;
  EXPECT_GT(done, 15u) << "block 0's first 15 and other blocks' phases: " << status;
  const std::string& text = app.step_def()->text;
  EXPECT_NE(text.find("block 0's phase 16"), std::string::npos) << text;
  EXPECT_NE(text.find("play bar"), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(blocks) + " blocks"), std::string::npos) << text;
  EXPECT_NE(text.find("/" + std::to_string(total)), std::string::npos) << status << "\n" << text;
}

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

// A sentence that names the cells and their numbers or ranks speaks of them; cells alone, or
// numbers in another sentence, do not.
TEST(StepText, SpeaksOfTheNumbersInTheCells) {
  EXPECT_TRUE(lessons::speaks_of_cell_numbers("The number in each\ncell is the thread's rank."));
  EXPECT_TRUE(lessons::speaks_of_cell_numbers("Every cell is rank 0, so every thread passes."));
  EXPECT_FALSE(lessons::speaks_of_cell_numbers("Cells are coloured by tile. The number 4 is odd."));
  // Numbers and ranks in one sentence are the grid's, with or without the word "cell".
  EXPECT_TRUE(lessons::speaks_of_cell_numbers("Coloured by block; each number is a rank."));
  EXPECT_TRUE(lessons::speaks_of_cell_numbers("A lane's rank is lane / 2: the numbers run 0, 0, 1."));
  EXPECT_FALSE(lessons::speaks_of_cell_numbers("Each row of 32 cells is one warp."));
  size_t speaking = 0;
  for (const lessons::Step& s : lessons::find_lesson("tiled-partitions")->steps)
    speaking += lessons::speaks_of_cell_numbers(s.text);
  EXPECT_GE(speaking, 1u) << "tiled-partitions' first steps speak of the ranks in the cells";
}

// What a room needs, each threshold said in words when missed.
TEST(StepReadability, EachThresholdIsSaidWhenMissed) {
  StepReport::Readability good;
  good.measured = true;
  good.grid_label_px = 15;
  good.text_at_top = true;
  good.code_visible_chars = 60;
  EXPECT_EQ(readability_problems(good), "ok");
  StepReport::Readability none = good;
  none.grid_label_px = 0;  // no numbers drawn: fine unless the text speaks of them
  EXPECT_EQ(readability_problems(none), "ok");
  none.text_speaks_of_cell_numbers = true;
  EXPECT_NE(readability_problems(none).find("none are drawn"), std::string::npos);
  StepReport::Readability bad = good;
  bad.grid_label_px = 8;
  bad.text_at_top = false;
  bad.text_scroll_px = 40;
  bad.code_visible_chars = 35;
  const std::string said = readability_problems(bad);
  EXPECT_NE(said.find("8 px tall, under 14"), std::string::npos) << said;
  EXPECT_NE(said.find("does not open at its title"), std::string::npos) << said;
  EXPECT_NE(said.find("40 px of scrolling"), std::string::npos) << said;
  EXPECT_NE(said.find("35 columns, under 60"), std::string::npos) << said;
}

TEST(StepReadability, TheGridsCellsAndWhatTheTabPointsAtMustBeInSight) {
  StepReport::Readability r;
  r.measured = true;
  r.text_at_top = true;
  r.code_visible_chars = 60;
  r.grid_cells_h = 300;
  r.grid_cells_px = 300;
  r.tab_focus_in_sight = 1;
  EXPECT_EQ(readability_problems(r), "ok");
  r.grid_cells_px = 20;  // a legend with a sliver of cells under it
  r.tab_focus_in_sight = 0;
  const std::string said = readability_problems(r);
  EXPECT_NE(said.find("shows 20 px of cells, under 64"), std::string::npos) << said;
  EXPECT_NE(said.find("out of sight"), std::string::npos) << said;
  // A grid whose cells are all in sight is usable however short; a tab that points at nothing
  // is not held to it.
  r.grid_cells_h = 20;
  r.tab_focus_in_sight = -1;
  EXPECT_EQ(readability_problems(r), "ok");
}

}  // namespace
}  // namespace coop::app
