// The lesson list, the steps, the lesson text and the kernel source panels.
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "device/trace/memory_access.hpp"
#include "visual/event_text.hpp"
#include "visual/memory_badges.hpp"
#include "visual/views/code_view.hpp"
#include "visual/views/markdown_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_lesson_picker(GuiApp& app, double now, float width) {
  const auto& all = lessons::registry();
  const lessons::LessonDef* shown = app.lesson_def();
  const std::string current = shown          ? shown->title
                              : !app.program.empty() ? "your program: " + app.program
                              : app.replay           ? "a saved trace"
                                                     : "Pick a lesson";
  ImGui::SetNextItemWidth(width);
  const std::string preview = visual::fit_words(
      current, width - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2);
  const bool open = ImGui::BeginCombo("##lesson", preview.c_str(), ImGuiComboFlags_HeightLarge);
  if (preview != current && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current.c_str());
  if (open) {
    for (size_t i = 0; i < all.size(); ++i) {
      const lessons::LessonDef& l = all[i];
      ImGui::PushID(int(i));
      const std::string label = std::to_string(i + 1) + ". " + l.title;
      if (ImGui::Selectable(label.c_str(), app.lesson == int(i) && !app.replay))
        app.select_lesson(int(i), now);
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Text("%s  (%s)", l.id.c_str(), lessons::to_string(l.level));
        std::string concepts;
        for (const std::string& c : l.concepts) concepts += (concepts.empty() ? "" : ", ") + c;
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextDisabled("%s", concepts.c_str());
        ImGui::PopTextWrapPos();
        if (!l.runs_on_gpu) ImGui::TextDisabled("runs on the emulator only");
        ImGui::EndTooltip();
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
}

void draw_steps(GuiApp& app, double now) {
  const lessons::LessonDef* l = app.lesson_def();
  panel_title("Steps");
  if (!l) {
    visual::text_dim_wrapped(app.program.empty()
                                 ? "This trace is not from a known lesson."
                                 : "Steps belong to lessons. Play the program's launches with the "
                                   "bar below, pick one above the grid, click a thread to follow "
                                   "it.");
    return;
  }
  // The current step is scrolled into view when it changes (Next, a script, a restart).
  static std::pair<const lessons::LessonDef*, int> scrolled_to{nullptr, -1};
  const bool scroll = scrolled_to != std::make_pair(l, app.step);
  for (size_t i = 0; i < l->steps.size(); ++i) {
    const std::string label = std::to_string(i + 1) + ". " + l->steps[i].title;
    ImGui::PushID(int(i));
    // Titles wrap instead of running out of the panel.
    if (ImGui::Selectable("##step", app.step == int(i) && !app.whole_lesson, 0,
                          ImVec2(0, ImGui::CalcTextSize(label.c_str(), nullptr, false,
                                                        ImGui::GetContentRegionAvail().x)
                                        .y)))
      app.select_step(int(i), now);
    ImGui::SameLine(ImGui::GetStyle().FramePadding.x * 0);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(label.c_str());
    ImGui::PopTextWrapPos();
    if (scroll && app.step == int(i)) {
      ImGui::SetScrollHereY(0.5f);
      // Until the list knows its height (its first frame), the scroll may fall short: again.
      if (ImGui::GetScrollMaxY() > 0 || ImGui::GetCursorPosY() <= ImGui::GetWindowHeight())
        scrolled_to = {l, app.step};
    }
    ImGui::PopID();
  }
}

// The middle column's text: the current step's (with the way to the previous and next step),
// or the whole lesson.
void draw_lesson_text(GuiApp& app, double now) {
  const lessons::LessonDef* l = app.lesson_def();
  const lessons::Step* s = app.step_def();
  if (app.lesson_text.empty() && !s) {
    panel_title("Lesson");
    ImGui::TextDisabled("No lesson text for this trace.");
    return;
  }
  if (s && app.presentation) {
    // Presentation: one row of arrows and a step picker that also opens the whole lesson, so the
    // text below keeps the height (the steps list and its buttons are hidden).
    ImGui::BeginDisabled(app.step <= 0);
    if (ImGui::Button("\xe2\x97\x80")) app.select_step(app.step - 1, now);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Previous step");
    ImGui::SameLine();
    ImGui::BeginDisabled(size_t(app.step + 1) >= l->steps.size());
    if (ImGui::Button("\xe2\x96\xb6")) app.select_step(app.step + 1, now);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Next step");
    ImGui::SameLine();
    const std::string current = app.whole_lesson ? std::string("The whole lesson")
                                                 : "Step " + std::to_string(app.step + 1) +
                                                       " of " + std::to_string(l->steps.size());
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
    visual::draw_markdown(app.step_text);
  }
  ImGui::EndChild();
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
    uint32_t at_lines = 0, lines = 0;
    for (uint32_t c : *counts)
      if (c) at_lines += c, ++lines;
    const std::string whose =
        app.selection.empty() ? std::string() : visual::selection_label(*m, app.selection) + ": ";
    const std::string where = whose + visual::count_of(at_lines, "thread") + " on " +
                              visual::count_of(lines, "highlighted line");
    // Beside the file name when it fits, else wrapped below it.
    visual::same_line_if_room(std::min(ImGui::CalcTextSize(where.c_str()).x,
                                       ImGui::GetContentRegionAvail().x * 0.6f));
    visual::text_dim_wrapped(where);
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
  if (m) {
    // The analysis walks every event: once per launch shown, not per frame.
    const std::pair<const visual::TimelineModel*, uint64_t> key{m, m->trace().events.size()};
    if (app.memory_badges_of != key) {
      app.memory_badges = visual::memory_badges(analyze_memory(m->trace()));
      app.memory_badges_of = key;
    }
    in.memory = &app.memory_badges;
  }
  const std::vector<std::string> races = race_marks(app);
  if (!races.empty()) in.races = &races;
  const int clicked = visual::draw_code_view("code", in, app.code, 0);
  if (clicked > 0) app.jump_to_line(clicked);
}

}  // namespace coop::app
