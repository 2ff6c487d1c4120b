// Scripts' `expect WHAT VALUE` and `print` (script.hpp): what the window shows, in words a test
// compares.
#include <sstream>
#include <string>
#include <vector>

#include "app/gui/exercise_tab.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/script.hpp"
#include "app/gui/step_report.hpp"
#include "app/gui/tab_benchmark.hpp"
#include "app/gui/tab_memory.hpp"

namespace coop::app {
namespace {

// What `expect exercise...` compares; "" for a name it does not know.
std::string exercise_fact(GuiApp& app, const std::string& what) {
  const ExerciseTabState* x = app.exercise.get();
  const bool chosen = x && x->exercise();
  if (what == "exercise") return chosen ? x->id : "none";
  if (what == "exercise-verdict")
    return !x || !x->report       ? "none"
           : !x->report->compiled ? "did-not-compile"
           : x->report->passed()  ? "passed"
                                  : "failed";
  if (what == "exercise-attempts") return std::to_string(x ? x->progress.attempts : 0);
  if (what == "exercise-hints") return std::to_string(x ? x->hints_shown : 0);
  if (what == "exercise-solution")
    return x && !x->solution.empty() ? "shown" : x && x->solution_asked ? "asked" : "hidden";
  if (what == "exercise-asked") return x && x->overwrite_asked ? "yes" : "no";
  return "";
}

}  // namespace

std::string status_line(const GuiApp& app) {
  std::ostringstream out;
  const lessons::LessonDef* l = app.lesson_def();
  out << "lesson " << (l ? l->id : "-") << ", step " << app.step + 1 << ", grid "
      << app.config.grid.str() << ", block " << app.config.block.str();
  if (const visual::TimelineModel* m = app.model())
    out << ", threads " << m->thread_count() << ", events " << m->size() << ", cursor "
        << app.playback.cursor;
  if (app.outcome && !app.outcome->run.status.ok())
    out << ", error: " << app.outcome->run.status.message();
  if (const std::string dropped = app.dropped_warning(); !dropped.empty())
    out << ", warning: " << dropped;
  return out.str();
}

Status expect_command(const std::vector<std::string>& args, GuiApp& app) {
  const std::string& a0 = args[0];
  const visual::TimelineModel* m = app.model();
  const std::string& want = args[1];
  std::string got;
  if (a0 == "threads")
    got = m ? std::to_string(m->thread_count()) : "none";
  else if (a0 == "blocks")
    got = m ? std::to_string(m->block_count()) : "none";
  else if (a0 == "block")
    got = app.panel_launch().block.str();
  else if (a0 == "grid")
    got = app.panel_launch().grid.str();
  else if (a0 == "kernel")
    got = m ? m->trace().header.kernel : "none";
  else if (a0 == "colour")
    got = report_step(app).colour_by;
  else if (a0 == "view")  // `expect view ok`: the step shows what its text promises
    got = step_view_problems(report_step(app));
  else if (a0 == "refused") {  // `expect refused grid`: the grid field holds a refused value
    got = want == "none" ? "none" : "not refused";
    for (const auto& [name, f] : app.fields)  // `expect refused none`: no field does
      if (!f.error.empty() && (want == "none" || name == want)) got = name;
  } else if (a0 == "races") {  // found in the launch shown (with the races switch on)
    const size_t n = shown_races(app).size();
    got = want == "some" && n > 0 ? "some" : std::to_string(n);
  } else if (a0 == "accesses")  // the launch shown recorded loads and stores
    got = app.launch_event_kinds() &
                  (1u << unsigned(EventKind::Load) | 1u << unsigned(EventKind::Store))
              ? "yes"
              : "no";
  else if (a0 == "events")
    got = m ? std::to_string(m->size()) : "none";
  else if (a0 == "lesson")
    got = app.lesson_def() ? app.lesson_def()->id : "none";
  else if (a0 == "step")
    got = std::to_string(app.step + 1);
  else if (a0 == "status")
    got = !app.outcome ? "none" : app.outcome->run.status.ok() ? "ok" : "error";
  else if (a0 == "problem")
    got = app.outcome ? to_string(app.outcome->problem.kind) : "none";
  else if (a0 == "dropped")
    got =
        want == "some" && app.dropped_events() > 0 ? "some" : std::to_string(app.dropped_events());
  else if (a0 == "trace-backend")
    got = m ? to_string(m->trace().header.backend) : "none";
  else if (a0 == "schedule")  // the emulator's schedule the shown trace ran under
    got = m ? m->trace().header.schedule.substr(0, m->trace().header.schedule.find(' ')) : "none";
  else if (a0 == "capacity")
    got = std::to_string(app.trace_capacity);
  else if (a0 == "replay")
    got = app.replay ? "yes" : "no";
  else if (a0 == "bench-report")
    got = app.bench && app.bench->report ? "yes" : "no";
  else if (a0 == "pack-item")  // the class pack's item shown, from 1
    got = app.pack.item() ? std::to_string(app.pack.current + 1) : "none";
  else if (a0 == "question")  // the id of the question being asked, or none
    got = app.questions.current() ? app.questions.current()->id : "none";
  else if (a0 == "field")  // the answer field's text as the student sees it, or empty
    got = *answer_field(app.questions) ? answer_field(app.questions) : "empty";
  else if (a0 == "score")  // this session's: right/asked
    got = std::to_string(app.questions.session_right) + "/" +
          std::to_string(app.questions.session_asked);
  else if (a0 == "verdict")  // the last answer: right, wrong, skipped or none
    got = app.questions.said.empty()                              ? "none"
          : app.questions.said.back().right                       ? "right"
          : app.questions.said.back().line.starts_with("Skipped") ? "skipped"
                                                                  : "wrong";
  else if (a0 == "notice-error")
    got = app.notice_is_error ? "yes" : "no";
  else if (a0 == "request-ways" || a0 == "request-sectors" || a0 == "request-site") {
    // The request the Memory tab's one-request view shows.
    const visual::RequestBrowser* b = m ? request_browser(app) : nullptr;
    const MemoryRequest* r = b ? b->picked() : nullptr;
    if (!r)
      got = "none";
    else if (a0 == "request-site")  // line-17-shared-load
      got = "line-" + std::to_string(r->line) + "-" + to_string(r->space) +
            (r->store ? "-store" : "-load");
    else if (a0 == "request-ways")
      got = std::to_string(layout_request(*r).ways);
    else
      got = std::to_string(layout_request(*r).sectors.size());
  } else if (a0 == "printed" || a0 == "compile-errors" || a0 == "code") {
    got = program_fact(app, a0, want);
  } else if (a0.starts_with("exercise")) {
    got = exercise_fact(app, a0);
    if (got.empty())
      return Status::error("expect " + a0 +
                           ": choose exercise, exercise-verdict, exercise-attempts, "
                           "exercise-hints, exercise-solution or exercise-asked");
  } else if (a0 == "tab") {
    // The tab a step asked for opens on the next frame; until then it is the one that counts.
    const ResultTab shown = app.tab_request != ResultTab::None ? app.tab_request : app.shown_tab;
    got = shown == ResultTab::None ? "none" : tab_name(shown);
  } else
    return Status::error(
        "expect " + a0 +
        ": choose threads, blocks, block, grid, refused, kernel, colour, view, events, lesson, "
        "step, status, "
        "problem, dropped, capacity, replay, trace-backend, schedule, notice-error, "
        "bench-report, pack-item, request-site, request-ways, request-sectors, question, score, "
        "verdict, tab, races, accesses, printed, compile-errors or code");
  if (got != want)
    return Status::error("expected " + a0 + " " + want + ", got " + got + " (" + status_line(app) +
                         ")");
  return {};
}

}  // namespace coop::app
