// What the Exercise tab (app/gui/tab_exercise.cpp) holds between frames and what it does, with
// no drawing in it, so tests and scripts drive the same steps a student clicks: pick an exercise
// of the lesson, Start (the starter written into a folder and opened in the user's editor, an
// existing file never overwritten without asking), Check (on a worker thread, with progress,
// counted in the progress file), the failing case's trace, hints one at a time, and the
// solution only after a confirmation.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/exercise/exercise.hpp"
#include "app/exercise/progress.hpp"
#include "app/gui/exercise_runner.hpp"
#include "visual/markdown.hpp"

namespace coop::app {

struct GuiApp;

// Where a failing case's recorded run is to be shown: the trace file, and the launch, event
// (index into that launch's events) and thread where it first departs from the reference's.
struct FailingRun {
  std::string trace;
  long launch = -1, event = -1, thread = -1;
  std::string what;  // that difference in words
};

// The recorded run of a failing case (its trace and the event where it departs from the
// reference); none for a case that passed or recorded no run.
std::optional<FailingRun> failing_run_of(const CaseResult& c);

// The compiler's lines that name the student's `file` (its errors at their lines), in order.
std::vector<std::string> lines_naming(const std::string& compiler_output, const std::string& file);

struct ExerciseTabState {
  // [exercises] Every exercise, found once; the one shown, by id.
  std::vector<Exercise> all;
  std::string list_error;  // why none could be found
  std::string id;
  std::vector<visual::TextBlock> spec;  // the shown exercise's spec, parsed
  ExerciseProgress progress;            // its entry in the progress file
  std::string progress_error;           // why that could not be read or written

  // [start] The file the student works on, and what Start last said.
  std::string started_file;
  std::string check_file;        // the file Check checks (the started one, or any other)
  bool overwrite_asked = false;  // Start found a file there and waits for the student's answer
  std::string message;
  bool message_is_error = false;
  // Opens a file in the user's editor; tests put a recorder here.
  std::function<Status(const std::string&)> open_in_editor;

  // [check]
  ExerciseCheckRunner runner;
  std::optional<CheckReport> report;  // the last finished check
  std::string check_error;            // the check could not run (no such file)

  // [hints and solution]
  int hints_shown = 0;
  bool solution_asked = false;  // the confirmation is open
  std::string solution;         // the reference solution's text once confirmed ("" until then)

  // What the student asked for last and has not seen yet: the tab scrolls it into view once.
  enum class Newest { None, Verdict, Hint, Solution };
  Newest newest = Newest::None;

  ExerciseTabState();
  // Finds the exercises (once).
  void load();
  const Exercise* exercise() const;
  // The exercises of lesson `lesson` (its id), in order.
  std::vector<const Exercise*> of_lesson(const std::string& lesson) const;
  // Shows exercise `id`: its spec and progress; the hints, solution and last check are its own.
  Status choose(const std::string& id, const std::string& progress_path);
  // The folder Start writes into: `root` (the folder chosen in the tab, "" for the default
  // ~/coopviz-exercises) with the exercise's id under it.
  std::string start_folder(const std::string& root) const;
  // Start: writes the starter into start_folder(root) and opens it in the editor. A file
  // already there is kept and Start asks (overwrite_asked) unless `overwrite`; `keep` opens the
  // existing file instead. `open_editor` false: only write (scripts).
  enum class StartAnswer { Ask, Overwrite, Keep };
  Status start(const std::string& root, StartAnswer answer, bool open_editor = true);
  // Check: `file` on a worker thread, counted in `progress_path`; false when one is running.
  bool check(const std::string& file, const std::string& progress_path);
  // Picks up a finished check (each frame).
  void poll();
  void show_next_hint();
  // Show solution: asks first; confirm shows the text and counts it as seen in the progress
  // file (the solution is shown, never written anywhere).
  void ask_solution() { solution_asked = true; }
  Status confirm_solution(const std::string& progress_path);
  // The first failing case's recorded run, when the last check has one.
  std::optional<FailingRun> failing_run() const;
};

// The app's Exercise tab state, made when first needed.
ExerciseTabState& exercise_tab(GuiApp& app);

// Shows `run` in the app as `coopviz gui --trace` does: the trace, at the moment of the event
// where it departs from the reference, with that thread selected.
Status show_failing_run(GuiApp& app, const FailingRun& run);

}  // namespace coop::app
