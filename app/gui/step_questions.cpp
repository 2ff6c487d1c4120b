#include "app/gui/step_questions.hpp"

#include "app/gui/gui_app.hpp"

namespace coop::app {

std::string question_key(const std::string& lesson, const std::string& id) {
  return lesson + "/" + id;
}

std::string question_key(const Question& q) {
  return question_key(q.lesson, q.id);
}

bool StepQuestions::asking() const {
  return next < asked.size() && (enabled || question_key(asked[next]) == required);
}

char* answer_field(StepQuestions& sq) {
  const Question* q = sq.current();
  const std::string key = q ? question_key(*q) : "";
  if (sq.field_for != key) {
    sq.field[0] = '\0';
    sq.field_for = key;
  }
  return sq.field;
}

namespace {

// The question's true answer on the run on screen.
Result<TrueAnswer> truth_on_screen(const GuiApp& app, const Question& q) {
  const lessons::LessonDef* l = app.lesson_def();
  const lessons::Step* s = app.step_def();
  if (!l || !s || app.models.empty()) return Status::error("the step has not run yet");
  std::vector<std::string> kernels;
  for (const auto& m : app.models) kernels.push_back(m->trace().header.kernel);
  const int launch = step_launch_index(*s, kernels);
  // A replayed trace (one recorded on a GPU) answers from its launches; it has no named results.
  std::span<const std::pair<std::string, std::string>> results;
  if (app.outcome) results = app.outcome->run.results;
  return evaluate(q, {l, s, launch < 0 ? nullptr : &app.models[size_t(launch)]->trace(), results});
}

// Moves past the current question.
void advance(StepQuestions& sq, std::string line, bool right) {
  sq.said.push_back({std::move(line), right});
  const std::string key = question_key(sq.asked[sq.next]);
  if (key == sq.required) sq.required.clear();  // asked on this visit of the pack's item
  sq.done.insert(key);
  ++sq.next;
  sq.error.clear();
}

}  // namespace

void open_step_questions(GuiApp& app) {
  StepQuestions& sq = app.questions;
  set_aside_step_questions(app);
  const lessons::LessonDef* l = app.lesson_def();
  if (!l || app.step < 0) return;
  Result<std::vector<Question>> all = lesson_questions(*l);
  if (!all) return;  // the lesson's mistakes: the lesson text panel shows them, once
  for (const Question& q : *all) {
    const std::string key = question_key(q);
    if (q.step == app.step + 1 && (key == sq.required || (sq.enabled && !sq.done.count(key))))
      sq.asked.push_back(q);
  }
}

bool question_run_ready(const GuiApp& app) {
  return !app.running() && !app.models.empty();
}

Status answer_question(GuiApp& app, std::string_view typed) {
  StepQuestions& sq = app.questions;
  const Question* q = sq.current();
  if (!q) return Status::error("no question is being asked");
  if (!question_run_ready(app))
    return Status::error("the step is still running: answer when it has run");
  Result<TrueAnswer> truth = truth_on_screen(app, *q);
  if (!truth) {
    sq.error = truth.message();
    return truth.status();
  }
  Result<Verdict> v = check_answer(*q, *truth, typed);
  if (!v) {
    sq.error = v.message();
    return v.status();
  }
  ++sq.session_asked;
  if (v->right) ++sq.session_right;
  record_answer(sq.score, *q, v->right);
  if (!sq.score_path.empty()) {
    sq.score_error.clear();
    if (Status s = save_score(sq.score_path, sq.score); !s) {
      sq.score_error = s.message();
      app.say(s.message(), true);
    }
  }
  advance(sq, v->line, v->right);
  return {};
}

void skip_question(GuiApp& app) {
  StepQuestions& sq = app.questions;
  const Question* q = sq.current();
  if (!q) return;
  std::string line = "Skipped.";
  if (question_run_ready(app))
    if (Result<TrueAnswer> truth = truth_on_screen(app, *q))
      line = "Skipped: it is " + truth->value + " (" + truth->found + ").";
  advance(sq, line, false);
}

void set_aside_step_questions(GuiApp& app) {
  StepQuestions& sq = app.questions;
  sq.asked.clear();
  sq.said.clear();
  sq.error.clear();
  sq.next = 0;
}

void set_questions_enabled(GuiApp& app, bool on) {
  app.questions.enabled = on;
  // Off, only a class pack's question is still asked; on, what the step has not asked yet.
  open_step_questions(app);
}

void load_question_score(GuiApp& app, const std::string& path) {
  StepQuestions& sq = app.questions;
  sq.score_path = path;
  Result<QuestionScore> s = load_score(path);
  if (s) {
    sq.score = *s;
    return;
  }
  // Kept as it is for the student to look at or delete: this session's answers are not saved.
  sq.score_error = s.message();
  sq.score_path.clear();
  app.say(s.message(), true);
}

}  // namespace coop::app
