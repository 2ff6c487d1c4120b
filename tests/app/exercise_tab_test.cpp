// The Exercise tab driven as the window drives it (no display needed): Start writes the starter
// and never overwrites the student's file without asking, Check runs on a worker thread with
// progress and is counted in the progress file, a compile error is shown at the student's file
// and line, hints come one at a time, the solution only after a confirmation, and the failing
// run opens at the moment and thread where it departs from the reference.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "app/exercise/progress.hpp"
#include "app/gui/editor_launch.hpp"
#include "app/gui/exercise_tab.hpp"
#include "app/gui/gui_app.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {
namespace fs = std::filesystem;

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Program builds go where the other program tests keep theirs, not into the user's cache.
void use_test_cache() {
  setenv("XDG_CACHE_HOME", testing::program_test_cache().c_str(), 1);
}

// A tab on exercise `id`, its editor replaced by a list of the files it was asked to open.
struct Tab {
  ExerciseTabState x;
  std::vector<std::string> opened;
  explicit Tab(const std::string& id, const std::string& progress = "") {
    x.open_in_editor = [this](const std::string& file) {
      opened.push_back(file);
      return Status();
    };
    const Status s = x.choose(id, progress);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  // Waits for the check and picks up its verdict.
  void finish() {
    ASSERT_TRUE(x.runner.wait(120)) << "the check took over two minutes";
    x.poll();
  }
};

TEST(ExerciseTab, StartWritesTheStarterAndAsksBeforeReplacingTheStudentsFile) {
  const fs::path root = testing::fresh_folder("extab-start");
  Tab t("tile-ranks");
  const fs::path file = root / "tile-ranks" / "starter.cu";
  EXPECT_EQ(t.x.start_folder(root.string()), (root / "tile-ranks").string());
  ASSERT_TRUE(t.x.start(root.string(), ExerciseTabState::StartAnswer::Ask).ok()) << t.x.message;
  EXPECT_EQ(text_of(file), text_of(t.x.exercise()->starter()));
  EXPECT_EQ(t.x.started_file, file.string());
  EXPECT_EQ(t.x.check_file, file.string()) << "Check checks the started file";
  EXPECT_EQ(t.opened, std::vector<std::string>{file.string()});

  std::ofstream(file) << "my work\n";
  const Status again = t.x.start(root.string(), ExerciseTabState::StartAnswer::Ask);
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find(file.string()), std::string::npos) << again.message();
  EXPECT_TRUE(t.x.overwrite_asked);
  EXPECT_EQ(text_of(file), "my work\n") << "asked, not overwritten";
  EXPECT_EQ(t.opened.size(), 1u);

  ASSERT_TRUE(t.x.start(root.string(), ExerciseTabState::StartAnswer::Keep).ok());
  EXPECT_FALSE(t.x.overwrite_asked);
  EXPECT_EQ(text_of(file), "my work\n");
  EXPECT_EQ(t.opened.size(), 2u) << "kept, and opened";
  ASSERT_TRUE(t.x.start(root.string(), ExerciseTabState::StartAnswer::Overwrite).ok());
  EXPECT_EQ(text_of(file), text_of(t.x.exercise()->starter()));
  fs::remove_all(root);
}

TEST(ExerciseTab, AMissingEditorIsAMessageAndTheFileIsStillWritten) {
  const fs::path root = testing::fresh_folder("extab-editor");
  Tab t("block-sum");
  t.x.open_in_editor = [](const std::string& file) {
    return launch_detached({"/no/such/editor", file});
  };
  ASSERT_TRUE(t.x.start(root.string(), ExerciseTabState::StartAnswer::Ask).ok());
  EXPECT_TRUE(fs::is_regular_file(root / "block-sum" / "starter.cu"));
  EXPECT_TRUE(t.x.message_is_error);
  EXPECT_NE(t.x.message.find("/no/such/editor"), std::string::npos) << t.x.message;
  EXPECT_NE(t.x.message.find("$EDITOR"), std::string::npos) << t.x.message;
  fs::remove_all(root);
}

TEST(ExerciseTab, TheDefaultFolderIsUnderHome) {
  const char* home = std::getenv("HOME");
  const std::string saved = home ? home : "";
  setenv("HOME", "/home/student", 1);
  Tab t("block-sum");
  EXPECT_EQ(t.x.start_folder(""), "/home/student/coopviz-exercises/block-sum");
  EXPECT_EQ(t.x.start_folder("/work/mine"), "/work/mine/block-sum");
  setenv("HOME", saved.c_str(), 1);
}

TEST(ExerciseTab, TheEditorIsVisualThenEditorThenXdgOpen) {
  const char* visual_env = std::getenv("VISUAL");
  const char* editor_env = std::getenv("EDITOR");
  const std::string visual = visual_env ? visual_env : "", editor = editor_env ? editor_env : "";
  setenv("VISUAL", "code --wait", 1);
  setenv("EDITOR", "nano", 1);
  EXPECT_EQ(editor_command("/tmp/a.cu"), (std::vector<std::string>{"code", "--wait", "/tmp/a.cu"}));
  unsetenv("VISUAL");
  EXPECT_EQ(editor_command("/tmp/a.cu"), (std::vector<std::string>{"nano", "/tmp/a.cu"}));
  setenv("EDITOR", "  ", 1);
  EXPECT_EQ(editor_command("/tmp/a.cu"), (std::vector<std::string>{"xdg-open", "/tmp/a.cu"}));
  EXPECT_TRUE(launch_detached({"true"}).ok()) << "started and reaped in the background";
  const Status missing = launch_detached({"/no/such/editor", "/tmp/a.cu"});
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("/no/such/editor"), std::string::npos) << missing.message();
  if (visual_env) setenv("VISUAL", visual.c_str(), 1);
  if (editor_env)
    setenv("EDITOR", editor.c_str(), 1);
  else
    unsetenv("EDITOR");
}

TEST(ExerciseTab, CheckRunsOnAWorkerThreadWithProgressAndIsCounted) {
  use_test_cache();
  const fs::path dir = testing::fresh_folder("extab-check");
  const std::string progress = (dir / "progress.json").string();
  Tab t("tile-ranks", progress);
  const std::string solution = t.x.exercise()->solution().string();
  const auto before = std::chrono::steady_clock::now();
  ASSERT_TRUE(t.x.check(solution, progress));
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  EXPECT_LT(waited, 0.2) << "Check returns at once; the build and the cases run elsewhere";
  EXPECT_TRUE(t.x.runner.running());
  EXPECT_FALSE(t.x.check(solution, progress)) << "one check at a time";
  // The progress bar's stages, as the window would see them frame by frame.
  std::set<std::string> stages;
  while (t.x.runner.running()) {
    stages.insert(t.x.runner.progress().second);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  t.finish();
  EXPECT_TRUE(std::any_of(stages.begin(), stages.end(), [](const std::string& s) {
    return s.find("hidden cases") != std::string::npos;
  })) << "the progress callback reached the tab";
  ASSERT_TRUE(t.x.report.has_value()) << t.x.check_error;
  EXPECT_TRUE(t.x.report->passed());
  EXPECT_EQ(t.x.progress.attempts, 1);
  EXPECT_TRUE(t.x.progress.solved);
  EXPECT_TRUE(t.x.progress_error.empty()) << t.x.progress_error;

  // A wrong answer afterwards: counted, and the exercise stays solved.
  std::string wrong = text_of(solution);
  wrong.replace(wrong.find("int(tile.thread_rank())"), 23, "int(tile.thread_rank()) + 1");
  std::ofstream(dir / "mine.cu") << wrong;
  ASSERT_TRUE(t.x.check((dir / "mine.cu").string(), progress));
  t.finish();
  ASSERT_TRUE(t.x.report.has_value());
  EXPECT_FALSE(t.x.report->passed());
  Result<ProgressBook> book = load_progress(progress);
  ASSERT_TRUE(book.ok()) << book.message();
  const ExerciseProgress& p = book->exercises.at("tile-ranks");
  EXPECT_EQ(p.attempts, 2);
  EXPECT_TRUE(p.solved);
  EXPECT_EQ(p.last_file, (dir / "mine.cu").string());
  EXPECT_EQ(t.x.progress, p) << "the tab shows what the file holds";
  fs::remove_all(dir);
}

TEST(ExerciseTab, ACheckThatCannotBeRecordedStillShowsItsVerdict) {
  use_test_cache();
  const fs::path dir = testing::fresh_folder("extab-unrecorded");
  std::ofstream(dir / "blocker") << "a file where the progress folder should be\n";
  const std::string progress = (dir / "blocker" / "progress.json").string();
  Tab t("tile-ranks", progress);
  EXPECT_EQ(t.x.progress.attempts, 0) << "an unreadable place holds no progress yet";
  ASSERT_TRUE(t.x.check(t.x.exercise()->solution().string(), progress));
  t.finish();
  ASSERT_TRUE(t.x.report.has_value());
  EXPECT_TRUE(t.x.report->passed());
  EXPECT_EQ(t.x.progress.attempts, 1) << "counted in the tab";
  EXPECT_NE(t.x.progress_error.find("not recorded"), std::string::npos) << t.x.progress_error;
  fs::remove_all(dir);
}

TEST(ExerciseTab, ACompileErrorIsShownAtTheStudentsFileAndLine) {
  use_test_cache();
  const fs::path dir = testing::fresh_folder("extab-compile");
  Tab t("tile-ranks");
  std::string text = text_of(t.x.exercise()->solution());
  text.replace(text.find("if (i < n) out[i]"), 17, "if (i < n) out[j]");
  const std::string file = (dir / "mine.cu").string();
  std::ofstream(file) << text;
  ASSERT_TRUE(t.x.check(file, ""));
  t.finish();
  ASSERT_TRUE(t.x.report.has_value()) << t.x.check_error;
  EXPECT_FALSE(t.x.report->compiled);
  const std::vector<std::string> mine = lines_naming(t.x.report->compiler_output, file);
  ASSERT_FALSE(mine.empty()) << t.x.report->compiler_output;
  EXPECT_TRUE(std::any_of(mine.begin(), mine.end(), [&](const std::string& line) {
    return line.starts_with(file + ":17:") && line.find("error") != std::string::npos;
  })) << t.x.report->compiler_output;
  EXPECT_EQ(t.x.progress.attempts, 1) << "a file that does not compile counts as an attempt";
  EXPECT_NE(t.x.progress_error.find("no progress file"), std::string::npos) << t.x.progress_error;
  fs::remove_all(dir);
}

TEST(ExerciseTab, HintsComeOneAtATime) {
  Tab t("block-sum");
  const size_t hints = t.x.exercise()->hints.size();
  ASSERT_EQ(hints, 3u);
  EXPECT_EQ(t.x.hints_shown, 0);
  for (int n = 1; n <= 3; ++n) {
    t.x.show_next_hint();
    EXPECT_EQ(t.x.hints_shown, n);
  }
  t.x.show_next_hint();
  EXPECT_EQ(t.x.hints_shown, 3) << "there is no fourth";
  ASSERT_TRUE(t.x.choose("tile-ranks", "").ok());
  EXPECT_EQ(t.x.hints_shown, 0) << "another exercise starts with its hints hidden";
}

TEST(ExerciseTab, TheSolutionIsShownOnlyAfterAConfirmationAndCountsAsSeen) {
  const fs::path dir = testing::fresh_folder("extab-solution");
  const std::string progress = (dir / "progress.json").string();
  Tab t("block-sum", progress);
  EXPECT_FALSE(t.x.confirm_solution(progress).ok()) << "nothing was asked";
  EXPECT_TRUE(t.x.solution.empty());
  t.x.ask_solution();
  EXPECT_TRUE(t.x.solution_asked);
  EXPECT_TRUE(t.x.solution.empty()) << "asking shows nothing yet";
  ASSERT_TRUE(t.x.confirm_solution(progress).ok());
  EXPECT_EQ(t.x.solution, text_of(t.x.exercise()->solution()));
  EXPECT_FALSE(t.x.solution_asked);
  Result<ProgressBook> book = load_progress(progress);
  ASSERT_TRUE(book.ok());
  EXPECT_TRUE(book->exercises.at("block-sum").solution_seen);
  EXPECT_EQ(book->exercises.at("block-sum").attempts, 0) << "seeing is not an attempt";
  // Nothing but the progress file was written.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(ExerciseTab, TheFailingRunIsReadFromTheCasesTraceFields) {
  CaseResult c;
  c.trace_path = "/tmp/case.cvt";
  c.first_difference = {0, 41, 70, 1, "thread 70 wrote 3; the reference's wrote 2"};
  c.passed = false;
  std::optional<FailingRun> run = failing_run_of(c);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->trace, "/tmp/case.cvt");
  EXPECT_EQ(run->event, 41);
  EXPECT_EQ(run->thread, 70);
  c.passed = true;
  EXPECT_FALSE(failing_run_of(c).has_value()) << "a passing case has nothing to show";
  EXPECT_FALSE(failing_run_of(CaseResult{}).has_value());
}

TEST(ExerciseTab, AFailingRunOpensAtItsEventWithItsThreadSelected) {
  // Any recorded run will do: the block-reduce lesson's, saved as a check would save it.
  GuiApp lesson;
  lesson.backend = BackendRequest::Emu;
  lesson.select_lesson(int(lessons::find_lesson("block-reduce") - lessons::registry().data()), 0);
  ASSERT_TRUE(lesson.wait_for_runs(300));
  ASSERT_FALSE(lesson.models.empty());
  std::vector<Trace> traces;
  for (const auto& m : lesson.models) traces.push_back(m->trace());
  const fs::path dir = testing::fresh_folder("extab-run");
  const std::string path = (dir / "case.cvt").string();
  ASSERT_TRUE(save_traces(path, traces).ok());
  const size_t event = traces[0].events.size() / 2;

  GuiApp app;
  ASSERT_TRUE(app.open_exercise("block-sum", 0).ok());
  ASSERT_TRUE(show_failing_run(app, {path, 0, long(event), -1, ""}).ok());
  EXPECT_TRUE(app.replay);
  EXPECT_EQ(app.launch, 0);
  ASSERT_NE(app.model(), nullptr);
  EXPECT_EQ(app.selection.thread, int64_t(traces[0].events[event].thread));
  ASSERT_GT(app.playback.cursor, 0u);
  EXPECT_EQ(&app.model()->at(app.playback.cursor - 1), &app.model()->trace().events[event])
      << "the event has just happened";
  EXPECT_TRUE(app.tab_has_content(ResultTab::Exercise)) << "the exercise stays at hand";
  EXPECT_FALSE(show_failing_run(app, {path, 5, 0, -1, ""}).ok()) << "no launch 5";
  fs::remove_all(dir);
}

TEST(ExerciseTab, OfferedWithALessonThatHasExercisesAndOpenedByIdForAClassPack) {
  GuiApp app;
  app.backend = BackendRequest::Emu;
  const Status unknown = app.open_exercise("no-such-exercise", 0);
  EXPECT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("block-sum"), std::string::npos) << "names the known ones";
  ASSERT_TRUE(app.open_exercise("block-sum", 0).ok());
  EXPECT_EQ(app.lesson_def()->id, "block-reduce");
  EXPECT_EQ(app.tab_request, ResultTab::Exercise);
  EXPECT_EQ(exercise_tab(app).id, "block-sum");
  EXPECT_TRUE(app.tab_has_content(ResultTab::Exercise));
  ASSERT_TRUE(app.wait_for_runs(300));
  EXPECT_EQ(app.tab_request, ResultTab::Exercise) << "the first step's tab does not replace it";
  // A lesson without exercises does not offer the tab.
  for (const lessons::LessonDef& l : lessons::registry())
    if (exercise_tab(app).of_lesson(l.id).empty()) {
      app.select_lesson(int(&l - lessons::registry().data()), 0);
      EXPECT_FALSE(app.tab_has_content(ResultTab::Exercise)) << l.id;
      break;
    }
  ASSERT_TRUE(app.wait_for_runs(300));
}

}  // namespace
}  // namespace coop::app
