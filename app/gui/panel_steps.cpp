// The Steps panel: the lesson's steps, the current one selected and scrolled into view.
#include <string>
#include <utility>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_steps(GuiApp& app, double now) {
  const lessons::LessonDef* l = app.lesson_def();
  panel_title("Steps");
  if (!l) {
    visual::text_dim_wrapped(!app.program_shown() ? "This trace is not from a known lesson."
                             : !app.model()
                                 ? "Steps belong to lessons. Once the program has run, its "
                                   "launches play with the bar below."
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

}  // namespace coop::app
