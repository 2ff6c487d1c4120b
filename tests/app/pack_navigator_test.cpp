// The window's class pack, on a GuiApp without a window: opening a pack, Next and Previous, a
// lesson item's preset applied as typed values (and kept for its lesson's question after it), an
// exercise opening its Exercise tab uncovered, a question asked whatever the switch says with no
// count in the code view to give its answer away, the pack remembered in the settings, and
// closing it giving back what the app ran on.
#include "app/gui/pack_navigator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "app/gui/exercise_tab.hpp"
#include "app/gui/gui_app.hpp"
#include "app/gui/panels.hpp"
#include "lessons/lesson.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {

const char* kPack =
    "title: Week one\n"
    "lesson tiled-partitions step 2 grid 4 block 128 param tile=8 backend emu schedule random "
    "seed 7\n"
    "note: eight colours per warp\n"
    "exercise block-sum\n"
    "question groups-and-ranks/rank-in-block\n"
    "lesson groups-and-ranks step 3\n";

class PackNavigatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = coop::testing::fresh_folder("pack-navigator");
    path_ = (dir_ / "week.pack").string();
    std::ofstream(path_) << kPack;
    app_.backend = BackendRequest::Emu;
    app_.schedule = Schedule::Lockstep;
    app_.seed = 3;
  }
  void TearDown() override {
    app_.wait_for_runs(300);
    std::filesystem::remove_all(dir_);
  }
  std::string lesson_id() const { return app_.lesson_def() ? app_.lesson_def()->id : "none"; }

  std::filesystem::path dir_;
  std::string path_;
  GuiApp app_;
};

TEST_F(PackNavigatorTest, OpensAtTheFirstItemWithItsPresetTyped) {
  ASSERT_TRUE(open_pack(app_, path_, 0, true, 0).ok());
  ASSERT_NE(app_.pack.item(), nullptr);
  EXPECT_EQ(app_.pack.current, 0);
  EXPECT_EQ(lesson_id(), "tiled-partitions");
  EXPECT_EQ(app_.step, 1);
  EXPECT_EQ(app_.config.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(app_.config.block, (Dim3{128, 1, 1}));
  EXPECT_EQ(app_.params.at("tile"), 8);
  EXPECT_TRUE(app_.grid_typed && app_.block_typed) << "shown in the Launch panel as typed";
  EXPECT_EQ(app_.typed_params.count("tile"), 1u);
  EXPECT_EQ(app_.backend, BackendRequest::Emu);
  EXPECT_EQ(app_.schedule, Schedule::Random);
  EXPECT_EQ(app_.seed, 7u);
  // The run that lands is the preset's.
  ASSERT_TRUE(app_.wait_for_runs(300));
  ASSERT_NE(app_.model(), nullptr);
  EXPECT_EQ(app_.model()->trace().header.launch.block, (Dim3{128, 1, 1}));
}

TEST_F(PackNavigatorTest, NextAndPreviousWalkTheItemsAndPresetsHoldForTheirItemOnly) {
  ASSERT_TRUE(open_pack(app_, path_, 0, true, 0).ok());
  step_pack(app_, 1, 0);  // the exercise: its lesson, with the Exercise tab on it
  EXPECT_EQ(app_.pack.current, 1);
  EXPECT_EQ(lesson_id(), "block-reduce");
  EXPECT_EQ(exercise_tab(app_).id, "block-sum");
  EXPECT_EQ(app_.schedule, Schedule::Lockstep) << "the first item's schedule was its own";
  EXPECT_EQ(app_.seed, 3u);
  EXPECT_FALSE(app_.grid_typed);

  step_pack(app_, 1, 0);  // the question: its lesson at its step
  EXPECT_EQ(app_.pack.current, 2);
  EXPECT_EQ(lesson_id(), "groups-and-ranks");
  Result<int> step = question_step("groups-and-ranks", "rank-in-block");
  ASSERT_TRUE(step.ok());
  EXPECT_EQ(app_.step, *step);

  step_pack(app_, 1, 0);
  EXPECT_EQ(app_.pack.current, 3);
  EXPECT_EQ(app_.step, 2);
  step_pack(app_, 1, 0);  // past the end: stays
  EXPECT_EQ(app_.pack.current, 3);

  step_pack(app_, -1, 0);
  step_pack(app_, -1, 0);
  step_pack(app_, -1, 0);
  EXPECT_EQ(app_.pack.current, 0);
  EXPECT_EQ(lesson_id(), "tiled-partitions");
  EXPECT_EQ(app_.params.at("tile"), 8) << "going back applies the preset again";
  step_pack(app_, -1, 0);
  EXPECT_EQ(app_.pack.current, 0);
}

TEST_F(PackNavigatorTest, RememberedInTheSettingsAndReopenedWithoutMoving) {
  ASSERT_TRUE(open_pack(app_, path_, 0, true, 0).ok());
  go_to_pack_item(app_, 3, 0);
  const GuiSettings s = app_.remembered();
  EXPECT_EQ(s.pack, path_);
  EXPECT_EQ(s.pack_item, 3);
  const std::string settings = (dir_ / "settings.json").string();
  ASSERT_TRUE(save_settings(settings, s).ok());
  Result<GuiSettings> back = load_settings(settings);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pack, path_);
  EXPECT_EQ(back->pack_item, 3);

  // Coming back: the pack at its item, the lesson shown left as it is.
  GuiApp again;
  again.backend = BackendRequest::Emu;
  again.select_lesson(0, 0);
  ASSERT_TRUE(open_pack(again, back->pack, back->pack_item, false, 0).ok());
  EXPECT_EQ(again.pack.current, 3);
  EXPECT_EQ(again.lesson, 0);
  again.wait_for_runs(300);
}

TEST_F(PackNavigatorTest, ClosingGivesBackWhatTheAppRanOn) {
  ASSERT_TRUE(open_pack(app_, path_, 0, true, 0).ok());
  EXPECT_EQ(app_.schedule, Schedule::Random);
  close_pack(app_);
  EXPECT_FALSE(app_.pack.pack.has_value());
  EXPECT_EQ(app_.schedule, Schedule::Lockstep);
  EXPECT_EQ(app_.seed, 3u);
  EXPECT_EQ(app_.remembered().pack, "");
}

TEST_F(PackNavigatorTest, ABadPackIsRefusedAndTheOpenOneStays) {
  ASSERT_TRUE(open_pack(app_, path_, 0, true, 0).ok());
  const std::string bad = (dir_ / "bad.pack").string();
  std::ofstream(bad) << "title: Bad\nlesson nowhere\n";
  const Status s = open_pack(app_, bad, 0, true, 0);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(bad + ":2: unknown lesson 'nowhere'"), std::string::npos)
      << s.message();
  EXPECT_EQ(app_.pack.path, path_);
}

TEST_F(PackNavigatorTest, ScriptCommandsDriveIt) {
  EXPECT_FALSE(run_pack_command(app_, {"next"}, 0).ok()) << "no pack open yet";
  ASSERT_TRUE(run_pack_command(app_, {path_}, 0).ok());
  ASSERT_TRUE(run_pack_command(app_, {"item", "4"}, 0).ok());
  EXPECT_EQ(app_.pack.current, 3);
  const Status past = run_pack_command(app_, {"item", "5"}, 0);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.message().find("1"), std::string::npos);
  EXPECT_NE(past.message().find("4"), std::string::npos) << past.message();
  ASSERT_TRUE(run_pack_command(app_, {"prev"}, 0).ok());
  EXPECT_EQ(app_.pack.current, 2);
  ASSERT_TRUE(run_pack_command(app_, {"summary"}, 0).ok());
  EXPECT_TRUE(app_.pack.show_summary);
  EXPECT_FALSE(run_pack_command(app_, {"jump", "2"}, 0).ok());
}

// A class on atomics: the lesson item sets the launch the room sees, its question follows.
const char* kAtomicsPack =
    "title: Atomics\n"
    "lesson block-reduce step 5 grid 16 schedule random seed 5\n"
    "question block-reduce/atomics-per-tile\n"
    "exercise block-sum\n"
    "lesson groups-and-ranks\n";

TEST_F(PackNavigatorTest, AQuestionItemAsksOnItsLessonItemsRunWhateverTheSwitchSays) {
  const std::string atomics = (dir_ / "atomics.pack").string();
  std::ofstream(atomics) << kAtomicsPack;
  set_questions_enabled(app_, false);  // a teacher presenting
  ASSERT_TRUE(open_pack(app_, atomics, 0, true, 0).ok());
  ASSERT_TRUE(app_.wait_for_runs(300));
  EXPECT_FALSE(app_.questions.asking()) << "the lesson item follows the switch";
  step_pack(app_, 1, 0);
  // The question item runs as its lesson item did: the teacher's grid, schedule and seed.
  EXPECT_EQ(app_.config.grid, (Dim3{16, 1, 1}));
  EXPECT_EQ(app_.schedule, Schedule::Random);
  EXPECT_EQ(app_.seed, 5u);
  ASSERT_TRUE(app_.questions.asking()) << "the teacher put the question there";
  EXPECT_EQ(app_.questions.current()->id, "atomics-per-tile");
  ASSERT_TRUE(app_.wait_for_runs(300));
  // The code view gives no count away while the question waits: the atomicAdd line's count is
  // the answer.
  EXPECT_FALSE(code_line_counts(app_).has_value());
  const int tiles = 16 * 256 / 32;  // one atomicAdd per tile of 32, in 16 blocks of 256
  ASSERT_TRUE(answer_question(app_, std::to_string(tiles)).ok()) << app_.questions.error;
  EXPECT_TRUE(app_.questions.said.back().right) << app_.questions.said.back().line;
  EXPECT_FALSE(app_.questions.asking());
  const std::optional<std::vector<uint32_t>> counts = code_line_counts(app_);
  ASSERT_TRUE(counts.has_value()) << "answered: the counts are back";
  uint32_t at_atomic = 0;
  for (int line : lessons::lines_with(app_.source(), "atomicAdd(total, sum)"))
    at_atomic = std::max(at_atomic, counts->at(size_t(line)));
  EXPECT_EQ(at_atomic, uint32_t(tiles));
  // Coming back to the item asks it again; the next lesson's item runs as the app did before.
  step_pack(app_, 1, 0);
  step_pack(app_, -1, 0);
  EXPECT_TRUE(app_.questions.asking());
  step_pack(app_, 1, 0);
  step_pack(app_, 1, 0);
  EXPECT_FALSE(app_.questions.asking());
  EXPECT_EQ(app_.schedule, Schedule::Lockstep);
  EXPECT_EQ(app_.seed, 3u);
}

TEST_F(PackNavigatorTest, AnExerciseItemIsNotHiddenBehindItsLessonsQuestion) {
  const std::string atomics = (dir_ / "atomics.pack").string();
  std::ofstream(atomics) << kAtomicsPack;
  ASSERT_TRUE(app_.questions.enabled);
  ASSERT_TRUE(open_pack(app_, atomics, 2, true, 0).ok());  // the exercise: block-reduce's
  ASSERT_TRUE(app_.wait_for_runs(300));
  EXPECT_EQ(lesson_id(), "block-reduce");
  EXPECT_EQ(app_.step, 0);
  EXPECT_FALSE(app_.questions.asking()) << "step 1's question would cover the Exercise tab";
  EXPECT_EQ(app_.resolve_tab(), ResultTab::Exercise);
  // The step opened again asks its question: setting it aside answered nothing.
  app_.select_step(0, 0);
  EXPECT_TRUE(app_.questions.asking());
}

TEST_F(PackNavigatorTest, TheSummaryReadsTheProgressFile) {
  ASSERT_TRUE(open_pack(app_, path_, 0, true, 0).ok());
  app_.pack.progress_path = (dir_ / "progress.json").string();
  ASSERT_TRUE(record_check(app_.pack.progress_path, "block-sum", "b.cu", true).ok());
  Result<PackSummary> s = open_pack_summary(app_);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(s->exercises.size(), 1u);
  EXPECT_TRUE(s->exercises[0].solved);
  EXPECT_EQ(s->exercises[0].attempts, 1);
  EXPECT_EQ(s->lessons.size(), 2u);
  EXPECT_EQ(s->questions.size(), 1u);
}

}  // namespace
}  // namespace coop::app
