// Predict, then run: the question a step asks before it is revealed, drawn at the top of the
// step's text (an answer field, or a button per choice; Check and Skip), the verdicts of those
// answered, and the cover that holds the grid and its tabs back until then. The logic (what is
// asked, the true answer, the score) is app/gui/step_questions.cpp and app/questions.
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

void coloured_line(const std::string& text, ImU32 colour) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  visual::text_wrapped(text);
  ImGui::PopStyleColor();
}

// The answer field and its buttons, or a button per choice.
void answer_controls(GuiApp& app, const Question& q) {
  StepQuestions& sq = app.questions;
  char* field = answer_field(sq);
  const bool ready = question_run_ready(app);
  ImGui::BeginDisabled(!ready);
  if (q.answer == AnswerKind::Choice) {
    for (size_t i = 0; i < q.choices.size(); ++i) {
      if (i > 0) same_line_if_fits(q.choices[i].c_str());
      if (ImGui::Button(q.choices[i].c_str())) (void)answer_question(app, q.choices[i]);
    }
  } else {
    const char* hint = q.answer == AnswerKind::Thread   ? "a thread number"
                       : q.answer == AnswerKind::Lane   ? "a lane, 0 to 31"
                       : q.answer == AnswerKind::Number ? "a number"
                                                        : "a whole number";
    // One widget per question: ImGui keeps the text of the field being edited in its own state,
    // which would carry the last answer into the next question's field under the same id.
    ImGui::PushID(sq.field_for.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (sq.focus_field && ready) {
      ImGui::SetKeyboardFocusHere();
      sq.focus_field = false;
    }
    const bool entered = ImGui::InputTextWithHint("##answer", hint, field, sizeof sq.field,
                                                  ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Check") || entered) && field[0]) {
      const std::string typed = field;  // answering may move on to the next question
      (void)answer_question(app, typed);
    }
    ImGui::PopID();
  }
  ImGui::EndDisabled();
  same_line_if_fits("Skip");
  if (ImGui::Button("Skip")) skip_question(app);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the step without answering (not counted)");
  if (!ready) ImGui::TextDisabled("running the step...");
}

}  // namespace

void draw_step_question(GuiApp& app) {
  const StepQuestions& sq = app.questions;
  // Only what may be asked is: with the switch off, a class pack's question alone.
  if (sq.asked.empty()) return;
  const visual::ViewStyle& st = visual::view_style();
  for (const StepQuestions::Said& s : sq.said)
    coloured_line(s.line, s.right ? st.colors.ok : st.colors.warning);
  if (const Question* q = sq.current()) {
    visual::push_font(st.fonts.bold);
    visual::text_wrapped("Predict, then run: question " + std::to_string(sq.next + 1) + " of " +
                         std::to_string(sq.asked.size()));
    visual::pop_font(st.fonts.bold);
    visual::text_wrapped(q->prompt);
    answer_controls(app, *q);
    if (!sq.error.empty()) coloured_line(sq.error, st.colors.error);
  }
  ImGui::Separator();
}

void draw_question_cover(GuiApp& app) {
  panel_title("Predict first");
  visual::text_dim_wrapped(
      "This step is hidden until you answer its question (above the step's text) or skip it: "
      "guess first, then see what the threads did. Questions can be turned off in the top bar.");
  (void)app;
}

void draw_question_switch(GuiApp& app) {
  bool on = app.questions.enabled;
  if (ImGui::Checkbox("Questions", &on)) set_questions_enabled(app, on);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Ask a question before revealing a step (off: for presenting)");
  const StepQuestions& sq = app.questions;
  if (sq.session_asked > 0) {
    ImGui::SameLine();
    ImGui::Text("%llu/%llu right", (unsigned long long)sq.session_right,
                (unsigned long long)sq.session_asked);  // as draw_top_bar measures it
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("This session; over every session: %llu of %llu",
                        (unsigned long long)sq.score.right, (unsigned long long)sq.score.asked);
  }
}

}  // namespace coop::app
