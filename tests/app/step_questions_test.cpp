// Predict, then run, in the app's state (no window): a step with questions asks them before it
// is revealed, checks each answer against the run on screen, keeps this session's score and saves
// every session's; the switch turns them off; a step answered once is not asked again.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/gui/gui_app.hpp"
#include "app/gui/step_report.hpp"

namespace coop::app {
namespace {

// The app showing `lesson` at `step` (from 1) on the emulator, its run landed.
void open_step(GuiApp& app, const std::string& lesson, int step) {
  app.backend = BackendRequest::Emu;
  const lessons::LessonDef* l = lessons::find_lesson(lesson);
  ASSERT_NE(l, nullptr);
  app.select_lesson(int(l - lessons::registry().data()), 0);
  if (step > 1) app.select_step(step - 1, 0);
  ASSERT_TRUE(app.wait_for_runs(300));
}

TEST(StepQuestions, AStepAsksItsQuestionsThenRevealsAndScores) {
  GuiApp app;
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("coopviz-step-questions-" + std::to_string(::getpid())) / "questions.json")
          .string();
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
  load_question_score(app, path);
  open_step(app, "occupancy", 1);
  ASSERT_TRUE(app.questions.asking());
  EXPECT_EQ(app.questions.current()->id, "blocks-768");
  EXPECT_FALSE(answer_question(app, "two").ok()) << "not a number: refused, not counted";
  EXPECT_EQ(app.questions.session_asked, 0u);
  ASSERT_TRUE(answer_question(app, "3").ok());
  EXPECT_FALSE(app.questions.said.back().right);
  EXPECT_EQ(app.questions.said.back().line.rfind("Not quite: it is 2, not 3 (", 0), 0u)
      << app.questions.said.back().line;
  ASSERT_TRUE(app.questions.asking()) << "the step's second question follows";
  EXPECT_EQ(app.questions.current()->id, "warps-768");
  ASSERT_TRUE(answer_question(app, "48").ok());
  EXPECT_TRUE(app.questions.said.back().right);
  EXPECT_FALSE(app.questions.asking()) << "both answered: the step is revealed";
  EXPECT_EQ(app.questions.session_right, 1u);
  EXPECT_EQ(app.questions.session_asked, 2u);
  // The answered step, once revealed, is a true step.
  EXPECT_EQ(step_view_problems(report_step(app)), "ok");
  Result<QuestionScore> saved = load_score(path);
  ASSERT_TRUE(saved.ok()) << saved.message();
  EXPECT_EQ(saved->right, 1u);
  EXPECT_EQ(saved->asked, 2u);
  EXPECT_TRUE(saved->latest.at("occupancy/warps-768"));
  // Coming back to the step asks nothing again this session.
  app.select_step(1, 0);
  ASSERT_TRUE(app.wait_for_runs(300));
  app.select_step(0, 0);
  ASSERT_TRUE(app.wait_for_runs(300));
  EXPECT_FALSE(app.questions.asking());
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST(StepQuestions, TheAnswerIsCheckedAgainstTheRunOnScreen) {
  GuiApp app;
  open_step(app, "occupancy", 1);
  ASSERT_EQ(app.questions.current()->id, "blocks-768");
  // The student changes the block before answering: the question is about what runs.
  ASSERT_TRUE(app.type_into("block", "512", 0).ok());
  app.run_now();
  ASSERT_TRUE(app.wait_for_runs(300));
  ASSERT_TRUE(answer_question(app, "4").ok());
  EXPECT_TRUE(app.questions.said.back().right) << app.questions.said.back().line;
}

TEST(StepQuestions, SkipAndTheSwitch) {
  GuiApp app;
  open_step(app, "groups-and-ranks", 4);
  ASSERT_TRUE(app.questions.asking());
  skip_question(app);
  EXPECT_EQ(app.questions.said.back().line.rfind("Skipped: it is 11 (", 0), 0u)
      << app.questions.said.back().line;
  EXPECT_EQ(app.questions.session_asked, 0u) << "a skip is not counted";
  set_questions_enabled(app, false);
  EXPECT_FALSE(app.questions.asking());
  EXPECT_FALSE(answer_question(app, "1").ok());
  set_questions_enabled(app, true);
  ASSERT_TRUE(app.questions.asking()) << "the question not yet answered is asked again";
  EXPECT_EQ(app.questions.current()->id, "coalesced-rank");
}

TEST(StepQuestions, AReplayedRecordedTraceAnswersToo) {
  GuiApp app;
  ASSERT_TRUE(
      app.open_trace(std::string(COOPVIZ_SOURCE_DIR) + "/assets/traces/groups-and-ranks.cvt").ok());
  EXPECT_FALSE(app.questions.asking()) << "no step is selected yet";
  app.select_step(0, 0);
  ASSERT_TRUE(app.questions.asking());
  ASSERT_TRUE(question_run_ready(app));
  ASSERT_TRUE(answer_question(app, "11").ok()) << app.questions.error;
  EXPECT_TRUE(app.questions.said.back().right) << app.questions.said.back().line;
}

TEST(StepQuestions, ADamagedScoreFileIsSaidAndLeftAlone) {
  GuiApp app;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("coopviz-step-questions-bad-" + std::to_string(::getpid()) + ".json"))
                               .string();
  { std::ofstream(path) << "{broken"; }
  load_question_score(app, path);
  EXPECT_TRUE(app.notice_is_error);
  EXPECT_NE(app.notice.find(path + " is not valid JSON"), std::string::npos) << app.notice;
  EXPECT_TRUE(app.questions.score_path.empty()) << "this session's answers do not overwrite it";
  std::filesystem::remove(path);
}

// The Launch panel's Defaults: every field it can change goes back, the schedule, seed and
// memory recording too, so the step's picture is the one its text speaks of.
TEST(LaunchDefaults, DefaultsResetTheScheduleSeedAndMemoryRecording) {
  GuiApp app;
  app.questions.enabled = false;
  open_step(app, "atomics-and-races", 2);
  const LaunchConfig stepped = app.config;
  app.schedule = Schedule::Random;
  app.seed = 7;
  app.record_memory = true;
  app.trace_capacity = 4096;
  app.reset_to_defaults(0);
  ASSERT_TRUE(app.wait_for_runs(300));
  EXPECT_EQ(app.schedule, Schedule::Lockstep);
  EXPECT_EQ(app.seed, 0u);
  EXPECT_FALSE(app.record_memory);
  EXPECT_EQ(app.trace_capacity, ExecOptions{}.trace_capacity);
  EXPECT_EQ(app.step, 1) << "the step shown stays";
  EXPECT_TRUE(app.config == stepped) << "the step's own launch";
  EXPECT_EQ(step_view_problems(report_step(app)), "ok");
}

}  // namespace
}  // namespace coop::app
