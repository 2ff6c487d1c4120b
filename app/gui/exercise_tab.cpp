#include "app/gui/exercise_tab.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "app/gui/editor_launch.hpp"
#include "app/gui/gui_app.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

Status open_with_user_editor(const std::string& file) {
  return launch_detached(editor_command(file));
}

}  // namespace

std::optional<FailingRun> failing_run_of(const CaseResult& c) {
  if (c.passed || c.trace_path.empty() || c.first_difference.launch < 0) return std::nullopt;
  return FailingRun{c.trace_path, c.first_difference.launch, c.first_difference.event,
                    c.first_difference.thread, c.first_difference.what};
}

std::vector<std::string> lines_naming(const std::string& compiler_output, const std::string& file) {
  std::vector<std::string> out;
  std::istringstream lines(compiler_output);
  const std::string at = file + ":";
  for (std::string line; std::getline(lines, line);)
    if (line.find(at) != std::string::npos) out.push_back(line);
  return out;
}

ExerciseTabState::ExerciseTabState() : open_in_editor(open_with_user_editor) {}

void ExerciseTabState::load() {
  if (!all.empty() || !list_error.empty()) return;
  Result<std::vector<Exercise>> found = find_exercises();
  if (found)
    all = std::move(*found);
  else
    list_error = found.message();
}

const Exercise* ExerciseTabState::exercise() const {
  for (const Exercise& e : all)
    if (e.id == id) return &e;
  return nullptr;
}

std::vector<const Exercise*> ExerciseTabState::of_lesson(const std::string& lesson) const {
  std::vector<const Exercise*> out;
  for (const Exercise& e : all)
    if (e.lesson == lesson) out.push_back(&e);
  return out;
}

Status ExerciseTabState::choose(const std::string& next, const std::string& progress_path) {
  load();
  // The running check's result belongs to the exercise it checks.
  if (runner.running() && next != id)
    return Status::error("a check of " + id + " is running: wait for it, then choose " + next);
  if (std::none_of(all.begin(), all.end(), [&](const Exercise& x) { return x.id == next; })) {
    // The library's words for an unknown id (they name the known ones).
    Result<Exercise> found = find_exercise(next);
    return found ? Status::error("exercise " + next + " was added after coopviz started")
                 : found.status();
  }
  // Everything but the list and the editor is the previous exercise's.
  id = next;
  progress = {};
  progress_error.clear();
  started_file.clear();
  overwrite_asked = false;
  message.clear();
  message_is_error = false;
  report.reset();
  check_error.clear();
  hints_shown = 0;
  solution_asked = false;
  solution.clear();
  newest = Newest::None;
  spec = visual::parse_markdown(exercise()->spec);
  if (!progress_path.empty()) {
    Result<ProgressBook> book = load_progress(progress_path);
    if (!book)
      progress_error = book.message();
    else if (auto it = book->exercises.find(id); it != book->exercises.end())
      progress = it->second;
  }
  check_file = progress.last_file;  // the file checked last time, to check again
  return {};
}

std::string ExerciseTabState::start_folder(const std::string& root) const {
  fs::path base = root;
  if (base.empty()) {
    const char* home = std::getenv("HOME");
    base = fs::path(home && *home ? home : ".") / "coopviz-exercises";
  }
  return (base / id).string();
}

Status ExerciseTabState::start(const std::string& root, StartAnswer answer, bool open_editor) {
  const Exercise* e = exercise();
  if (!e) return Status::error("no exercise is chosen");
  const fs::path to = fs::path(start_folder(root)) / e->starter().filename();
  std::error_code ec;
  const bool exists = fs::exists(to, ec);
  overwrite_asked = false;
  message_is_error = false;
  if (exists && answer == StartAnswer::Ask) {
    // The student's work is never replaced without their say.
    overwrite_asked = true;
    return Status::error(to.string() + " already exists: keep it or replace it with the starter");
  }
  if (!exists || answer == StartAnswer::Overwrite) {
    fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::copy_file(e->starter(), to, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      message = "Cannot write " + to.string() + ": " + ec.message();
      message_is_error = true;
      return Status::error(message);
    }
    message = "Wrote " + to.string() + ".";
  } else {
    message = "Kept your " + to.string() + ".";
  }
  started_file = check_file = to.string();
  if (!open_editor || !open_in_editor) return {};
  if (Status s = open_in_editor(started_file); !s) {
    // No editor is a message, not a failure: the file is written and its path is shown.
    message += " " + s.message() +
               ": open it in your editor yourself (set $VISUAL or $EDITOR "
               "to have coopviz open it).";
    message_is_error = true;
    return {};
  }
  message += " Opened it in your editor.";
  return {};
}

bool ExerciseTabState::check(const std::string& file, const std::string& progress_path) {
  const Exercise* e = exercise();
  if (!e || file.empty()) {
    check_error = e ? "give the file to check" : "no exercise is chosen";
    return false;
  }
  if (!runner.start(*e, file, progress_path)) return false;
  check_file = file;
  check_error.clear();
  return true;
}

void ExerciseTabState::poll() {
  std::optional<ExerciseCheckRunner::Done> done = runner.take();
  if (!done) return;
  if (!done->report) {
    check_error = done->report.message();
    return;
  }
  report = std::move(*done->report);
  newest = Newest::Verdict;
  if (done->recorded) {
    progress = *done->recorded;
    progress_error.clear();
    return;
  }
  // Counted here all the same, so the tab says what the student did; the file could not say it.
  ++progress.attempts;
  progress.solved = progress.solved || report->passed();
  progress_error = "This check was not recorded: " + done->recorded.message();
}

void ExerciseTabState::show_next_hint() {
  const Exercise* e = exercise();
  if (e && hints_shown < int(e->hints.size())) {
    ++hints_shown;
    newest = Newest::Hint;
  }
}

Status ExerciseTabState::confirm_solution(const std::string& progress_path) {
  const Exercise* e = exercise();
  if (!e) return Status::error("no exercise is chosen");
  if (!solution_asked) return Status::error("the solution is shown only after Show solution");
  Result<std::string> text = read_whole_file(e->solution());
  if (!text) return text.status();
  solution = std::move(*text);
  solution_asked = false;
  newest = Newest::Solution;
  progress.solution_seen = true;
  if (!progress_path.empty())
    if (Result<ExerciseProgress> p = record_solution_seen(progress_path, id); !p)
      progress_error = "Seeing the solution was not recorded: " + p.message();
  return {};
}

std::optional<FailingRun> ExerciseTabState::failing_run() const {
  if (!report) return std::nullopt;
  for (const CaseResult& c : report->cases)
    if (std::optional<FailingRun> run = failing_run_of(c)) return run;
  return std::nullopt;
}

ExerciseTabState& exercise_tab(GuiApp& app) {
  if (!app.exercise) app.exercise = std::make_shared<ExerciseTabState>();
  return *app.exercise;
}

Status show_failing_run(GuiApp& app, const FailingRun& run) {
  if (Status s = app.open_trace(run.trace); !s) return s;
  if (run.launch < 0 || run.event < 0) return {};
  if (Status s = app.show_trace_event(size_t(run.launch), size_t(run.event)); !s) return s;
  // What the selected thread did, event by event, next to the grid.
  app.tab_request = ResultTab::ThreadEvents;
  return {};
}

}  // namespace coop::app
