// The Lesson panel: the current step's text, with the way to the previous and next step, or the
// whole lesson's text.
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/markdown_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_lesson_text(GuiApp& app, double now) {
  if (app.program_shown()) return draw_program_output(app);  // a program has no lesson text
  const lessons::LessonDef* l = app.lesson_def();
  const lessons::Step* s = app.step_def();
  if (app.lesson_text.empty() && !s) {
    panel_title("Lesson");
    ImGui::TextDisabled("No lesson text for this trace.");
    return;
  }
  if (!app.lesson_errors.empty()) {
    // The author's mistakes stay in sight, whichever step or text is shown below them.
    ImGui::PushStyleColor(ImGuiCol_Text, visual::view_style().colors.error);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(("lesson.md has mistakes:\n" + app.lesson_errors).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::Separator();
  }
  if (s && app.presentation) {
    // Presentation: one row of arrows and a step picker that also opens the whole lesson, so the
    // text below keeps the height (the steps list and its buttons are hidden).
    ImGui::BeginDisabled(app.step <= 0);
    if (ImGui::Button("\xe2\x97\x80")) app.select_step(app.step - 1, now);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("Previous step");
    ImGui::SameLine();
    ImGui::BeginDisabled(size_t(app.step + 1) >= l->steps.size());
    if (ImGui::Button("\xe2\x96\xb6")) app.select_step(app.step + 1, now);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Next step");
    ImGui::SameLine();
    const std::string current = app.whole_lesson ? std::string("The whole lesson")
                                                 : "Step " + std::to_string(app.step + 1) + " of " +
                                                       std::to_string(l->steps.size());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##step", current.c_str())) {
      for (size_t i = 0; i < l->steps.size(); ++i)
        if (ImGui::Selectable((std::to_string(i + 1) + ". " + l->steps[i].title).c_str(),
                              !app.whole_lesson && app.step == int(i))) {
          app.whole_lesson = false;
          app.select_step(int(i), now);  // the same step again: back to its moment and view
        }
      ImGui::Separator();
      if (ImGui::Selectable("The whole lesson", app.whole_lesson)) app.whole_lesson = true;
      ImGui::EndCombo();
    }
    ImGui::Separator();
  } else if (s) {
    // The way through the steps stays at the top, in sight however long the text is.
    ImGui::BeginDisabled(app.step <= 0);
    if (ImGui::Button("\xe2\x97\x80 Previous")) app.select_step(app.step - 1, now);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(size_t(app.step + 1) >= l->steps.size());
    if (ImGui::Button("Next \xe2\x96\xb6")) app.select_step(app.step + 1, now);
    ImGui::EndDisabled();
    same_line_if_fits("Show again");
    if (ImGui::Button("Show again")) app.apply_step_view();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the moment and view this step is about");
    const char* other = app.whole_lesson ? "Back to the step" : "The whole lesson";
    same_line_if_fits(other);
    if (ImGui::Button(other)) app.whole_lesson = !app.whole_lesson;
    ImGui::Separator();
  }
  ImGui::BeginChild("text_body", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  const std::string shown = (l ? l->id : std::string()) + ":" +
                            (app.whole_lesson || !s ? std::string("lesson") : std::to_string(app.step));
  if (shown != app.text_shown_for) {
    ImGui::SetScrollY(0);
    app.text_shown_for = shown;
  }
  if (app.whole_lesson || !s) {
    visual::draw_markdown(app.lesson_text);
  } else {
    const visual::ViewStyle& st = visual::view_style();
    if (!app.presentation) ImGui::TextDisabled("Step %d of %zu", app.step + 1, l->steps.size());
    visual::push_font(st.fonts.heading ? st.fonts.heading : st.fonts.bold);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(s->title.c_str());
    ImGui::PopTextWrapPos();
    visual::pop_font(st.fonts.heading ? st.fonts.heading : st.fonts.bold);
    ImGui::Spacing();
    draw_step_question(app);
    // The text often tells the answer: it comes with the step, after the question.
    if (app.questions.asking())
      visual::text_dim_wrapped("The step's text follows your answer.");
    else
      visual::draw_markdown(app.step_text);
  }
  ImGui::EndChild();
}

}  // namespace coop::app
