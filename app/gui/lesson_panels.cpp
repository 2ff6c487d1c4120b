// The lesson list, the steps, the lesson text and the kernel source panels.
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/code_view.hpp"
#include "visual/views/markdown_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_lesson_list(GuiApp& app, double now) {
  panel_title("Lessons");
  const auto& all = lessons::registry();
  for (size_t i = 0; i < all.size(); ++i) {
    const lessons::LessonDef& l = all[i];
    ImGui::PushID(int(i));
    if (ImGui::Selectable(l.title.c_str(), app.lesson == int(i) && !app.replay))
      app.select_lesson(int(i), now);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::Text("%s  (%s)", l.id.c_str(), lessons::to_string(l.level));
      std::string concepts;
      for (const std::string& c : l.concepts) concepts += (concepts.empty() ? "" : ", ") + c;
      ImGui::TextDisabled("%s", concepts.c_str());
      if (!l.runs_on_gpu) ImGui::TextDisabled("runs on the emulator only");
      ImGui::EndTooltip();
    }
    ImGui::PopID();
  }
}

void draw_steps(GuiApp& app, double now) {
  const lessons::LessonDef* l = app.lesson_def();
  panel_title("Steps");
  if (!l) {
    ImGui::TextDisabled("This trace is not from a known lesson.");
    return;
  }
  for (size_t i = 0; i < l->steps.size(); ++i) {
    const std::string label = std::to_string(i + 1) + ". " + l->steps[i].title;
    if (ImGui::Selectable(label.c_str(), app.step == int(i))) app.select_step(int(i), now);
  }
  if (app.step < 0 || size_t(app.step) >= l->steps.size()) return;
  const lessons::Step& s = l->steps[size_t(app.step)];
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
  // What to watch in this step, with `code` spans marked as in the lesson text.
  visual::draw_rich_text(visual::parse_inline(s.watch));
  ImGui::Spacing();
  if (ImGui::Button("\xe2\x97\x80 Previous") && app.step > 0) app.select_step(app.step - 1, now);
  same_line_if_fits("Next \xe2\x96\xb6");
  if (ImGui::Button("Next \xe2\x96\xb6") && size_t(app.step + 1) < l->steps.size())
    app.select_step(app.step + 1, now);
  same_line_if_fits("Show again");
  if (ImGui::Button("Show again")) app.apply_focus();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Jump back to the moment this step is about");
}

void draw_lesson_text(GuiApp& app) {
  if (app.lesson_text.empty()) {
    panel_title("Lesson");
    ImGui::TextDisabled("No lesson text for this trace.");
    return;
  }
  visual::draw_markdown(app.lesson_text);
}

void draw_code_panel(GuiApp& app) {
  const visual::TimelineModel* m = app.model();
  std::string title = "Kernel";
  if (m && !m->trace().header.source_file.empty())
    title = m->trace().header.source_file;
  else if (const lessons::LessonDef* l = app.lesson_def())
    title = l->source_file;
  panel_title(title.c_str());
  // With a selection, the counts are the selected threads'; otherwise every thread's.
  std::vector<uint32_t> selected_counts;
  const std::vector<uint32_t>* counts = m ? &app.snapshot.line_counts() : nullptr;
  if (m && !app.selection.empty()) {
    selected_counts = visual::selection_line_counts(app.snapshot, *m, app.selection);
    counts = &selected_counts;
  }
  if (counts) {
    ImGui::SameLine();
    uint32_t at_lines = 0, lines = 0;
    for (uint32_t c : *counts)
      if (c) at_lines += c, ++lines;
    const std::string whose =
        app.selection.empty() ? std::string() : " of " + visual::selection_label(*m, app.selection);
    ImGui::TextDisabled("  %u threads%s on %u highlighted line%s", at_lines, whose.c_str(), lines,
                        lines == 1 ? "" : "s");
  }
  visual::CodeViewInput in;
  in.source = app.source();
  if (m) {
    in.line_counts = counts;
    const auto [first, last] = visual::selected_threads(*m, app.selection);
    in.thread_count = first < last ? last - first : m->thread_count();
    if (app.playback.cursor > 0) in.last_event_line = m->at(app.playback.cursor - 1).line;
  }
  in.step_lines = app.step_lines();
  const int clicked = visual::draw_code_view("code", in, app.code, 0);
  if (clicked > 0) app.jump_to_line(clicked);
}

}  // namespace coop::app
