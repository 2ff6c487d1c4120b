// coopviz lesson check FOLDER and the one list of a lesson.md's mistakes it shares with the
// window, `coopviz steps` and `gui --script` (app/questions/lesson_check.hpp): every shipped
// lesson is clean, and a broken copy of one is named line by line, the same by every command.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/questions/lesson_check.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {

namespace fs = std::filesystem;
using coop::testing::fresh_folder;
using coop::testing::Ran;
using coop::testing::run_coopviz;
using coop::testing::run_coopviz_env;

std::string folder_of(const lessons::LessonDef& l) {
  std::string folder = l.id;
  std::replace(folder.begin(), folder.end(), '-', '_');
  return folder;
}

TEST(LessonCheck, EveryShippedLessonHasNoMistakes) {
  for (const lessons::LessonDef& l : lessons::registry()) EXPECT_EQ(lesson_errors(l), "") << l.id;
}

TEST(LessonCheck, EveryShippedLessonFolderPassesTheCommand) {
  for (const lessons::LessonDef& l : lessons::registry()) {
    const std::string folder = COOPVIZ_SOURCE_DIR "/lessons/" + folder_of(l);
    const Ran r = run_coopviz("lesson check " + folder);
    EXPECT_EQ(r.exit_code, 0) << l.id << ": " << r.err;
    EXPECT_NE(r.out.find(folder + "/lesson.md: " + std::to_string(l.steps.size()) + " steps, "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("line references found in " + l.source_file + ": ok"), std::string::npos)
        << r.out;
  }
}

// A step's tab and what a question's query names are the app's to check: a tab no tab has, a
// snippet no kernel line holds, a question block without its query.
// The mistakes lesson_errors finds in groups-and-ranks with one step "A" on its first step's
// kernel and line, opening `tab`, followed by `after` (the step's text and blocks).
std::string probe_errors(const std::string& tab, const std::string& after) {
  const lessons::LessonDef& base = *lessons::find_lesson("groups-and-ranks");
  lessons::LessonDef l = base;
  const std::string md = "Text.\n## Steps\n### A\n```step\nkernel: " + base.steps[0].kernel +
                         "\nmoment: end\ncolour: block\ntab: " + tab +
                         "\nline: " + base.steps[0].code[0] + "\n```\n" + after;
  lessons::read_lesson_markdown(l, md, "probe/lesson.md");
  EXPECT_EQ(l.steps_error, "");
  return lesson_errors(l);
}

TEST(LessonCheck, TabsAndQueriesNameWhatTheLessonHas) {
  const std::string errors = probe_errors(
      "evnts",
      "Step text.\n\n```question\nid: a\nask: ?\nquery: output of thread 0 on \"no such "
      "code\"\n```\n\n```question\nid: b\nask: ?\nquery: rank of thread 99999 in block\n```\n"
      "```question\nid: c\nask: ?\n```\n");
  EXPECT_NE(errors.find("probe/lesson.md:8: step 'A': tab 'evnts': choose checks, events,"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("probe/lesson.md:24: question 'c': the question block lacks query"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("probe/lesson.md:16: question 'a': query 'output of thread 0 on \"no such "
                        "code\"': no line of " +
                        lessons::find_lesson("groups-and-ranks")->source_file + " holds \"no such code\""),
            std::string::npos)
      << errors;
  EXPECT_EQ(errors.find("question 'b'"), std::string::npos) << errors;
}

// A step's text that names a tab must use the title the tab row shows: "the Flow tab" and "the
// events tab" send a student looking for a tab that is not there.
TEST(LessonCheck, AStepTextNamesTabsByTheirTitles) {
  const std::string errors = probe_errors(
      "flow",
      "The Flow tab draws it; the events tab lists it. The **Data flow** tab, the Thread events "
      "tab, this tab, a table and the tabs are fine.\n");
  EXPECT_NE(errors.find("probe/lesson.md:3: step 'A': 'The Flow tab' names no tab; the tab row "
                        "shows Checks, Thread events, Barriers"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("'the events tab' names no tab"), std::string::npos) << errors;
  EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 1) << errors;  // those two only
}

// A copy of a shipped lesson with mistakes: `lesson check` names each with its file and line,
// once; `coopviz steps` on the same folder (COOPVIZ_LESSON_PATH) says the same lines.
TEST(LessonCheck, ABrokenFolderGetsEveryMistakeOnceWithItsLine) {
  const fs::path dir = fresh_folder("lesson-check");
  const fs::path folder = dir / "groups_and_ranks";
  fs::copy(COOPVIZ_SOURCE_DIR "/lessons/groups_and_ranks", folder, fs::copy_options::recursive);
  std::ifstream in(folder / "lesson.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string md = text.str();
  const size_t tab = md.find("tab: ", md.find("## Steps"));
  ASSERT_NE(tab, std::string::npos);
  md.insert(tab + 5, "no-");  // tab: no-events
  const int tab_line = int(std::count(md.begin(), md.begin() + long(tab), '\n')) + 1;
  md += "\n## Notes\n";
  const int notes_line = int(std::count(md.begin(), md.end(), '\n'));
  std::ofstream(folder / "lesson.md") << md;

  const Ran r = run_coopviz("lesson check " + folder.string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  const std::string file = (folder / "lesson.md").string();
  const std::string tab_error = "coopviz: error: " + file + ":" + std::to_string(tab_line) + ": ";
  const std::string notes_error =
      "coopviz: error: " + file + ":" + std::to_string(notes_line) + ": '## Notes' among the steps";
  EXPECT_NE(r.err.find(notes_error), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(notes_error), r.err.rfind(notes_error)) << "said once: " << r.err;
  // The notes heading stops the steps from parsing, so the tab is not reached: fixed, it is.
  md.erase(md.rfind("\n## Notes\n"));
  std::ofstream(folder / "lesson.md") << md << "\n";
  const Ran tab_only = run_coopviz("lesson check " + folder.string());
  EXPECT_EQ(tab_only.exit_code, 2);
  EXPECT_NE(tab_only.err.find(tab_error + "step '"), std::string::npos) << tab_only.err;
  EXPECT_NE(tab_only.err.find("tab 'no-events': choose checks, events"), std::string::npos)
      << tab_only.err;

  const Ran steps =
      run_coopviz_env("COOPVIZ_LESSON_PATH=" + dir.string(), "steps groups-and-ranks");
  EXPECT_EQ(steps.exit_code, 1);
  EXPECT_EQ(steps.err, tab_only.err) << "the same lines, from the same function";
  fs::remove_all(dir);
}

TEST(LessonCheck, AFolderThatIsNoLessonIsNamed) {
  const fs::path dir = fresh_folder("lesson-check-none");
  const Ran none = run_coopviz("lesson check " + (dir / "missing").string());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("missing: no such folder"), std::string::npos) << none.err;
  fs::create_directories(dir / "my_lesson");
  const Ran unknown = run_coopviz("lesson check " + (dir / "my_lesson").string());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("my_lesson: a lesson folder needs a lesson.json"), std::string::npos)
      << unknown.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace coop::app
