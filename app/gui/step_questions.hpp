// Predict, then run, in the window: when a step that asks questions opens, the app asks them
// before it reveals the step (the grid and its tabs stay covered), checks each answer against
// the run on screen (app/questions) and keeps the score, this session's and, in its own file
// beside the settings, every session's. Nothing here needs ImGui: panel_question.cpp draws it.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/questions/questions.hpp"
#include "app/questions/score.hpp"

namespace coop::app {

struct GuiApp;

struct StepQuestions {
  bool enabled = true;          // the switch: a teacher presenting turns questions off
  std::vector<Question> asked;  // the questions of the step shown, in order
  size_t next = 0;              // the first of them not yet answered or skipped
  struct Said {
    std::string line;  // the verdict, or "Skipped: ..."
    bool right = false;
  };
  std::vector<Said> said;  // what the app said to each answered or skipped question of the step
  std::string error;       // why the last answer could not be checked (not counted)
  uint64_t session_right = 0, session_asked = 0;
  // "lesson/id" of the questions answered or skipped this session: not asked again when the
  // student comes back to their step.
  std::set<std::string> done;
  QuestionScore score;     // every session's, as the file holds it
  std::string score_path;  // "" : the score is not saved (scripts, screenshots)
  std::string score_error;
  // The answer field as the student sees it. It belongs to one question (`field_for`, its key)
  // and starts empty for every question: a student who clicks into it and types must not append
  // to the previous question's answer.
  char field[64] = "";
  std::string field_for;
  bool focus_field = false;  // give the field the keyboard focus on the next frame (scripts)
  // "lesson/id" of the question a class pack's question item asks ("" : none): the teacher put
  // it there, so it is asked whatever the switch says and whether or not it was answered
  // before, until it is answered or skipped on this visit of the item.
  std::string required;

  // A question is waiting for its answer: the step stays covered.
  bool asking() const;
  const Question* current() const { return asking() ? &asked[next] : nullptr; }
};

// "lesson/id": a question's name across lessons.
std::string question_key(const std::string& lesson, const std::string& id);
std::string question_key(const Question& q);
// The answer field for the current question: emptied when the question it shows changes.
char* answer_field(StepQuestions& sq);

// Loads the questions of the step now shown (call when a step is selected); those already
// answered or skipped this session are not asked again.
void open_step_questions(GuiApp& app);
// The run the current question is checked against is on screen: it has landed (nothing is
// running), or a recorded trace is replayed.
bool question_run_ready(const GuiApp& app);
// Checks `typed` against the run on screen: the verdict joins `said`, the score counts it and is
// saved, and the next question (or the step) comes. An answer that cannot be read as the
// question's kind, or a run that cannot answer it, is an error and counts nothing.
Status answer_question(GuiApp& app, std::string_view typed);
// Skips the current question (the true answer is still shown, nothing is counted).
void skip_question(GuiApp& app);
// An exercise opened over the step: the step's questions are not asked now (nor counted as
// skipped), so that they do not cover its tab; opening the step again asks them.
void set_aside_step_questions(GuiApp& app);
// Turns questions on or off; on, the step shown asks what it has not asked yet.
void set_questions_enabled(GuiApp& app, bool on);
// Reads the score file (a damaged one is reported in the notice line and starts afresh).
void load_question_score(GuiApp& app, const std::string& path);

}  // namespace coop::app
