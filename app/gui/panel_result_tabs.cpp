// The tabs under the thread grid: the row of their titles, showing those with something to show,
// and the windows tabs are popped out into. Each tab draws itself (app/gui/tab_<name>.cpp).
#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_result_tabs(GuiApp& app) {
  app.resolve_tab();
  std::vector<const TabRow*> visible;
  for (const TabRow& tab : tab_rows())
    if (!app.popped_out[int(tab.id)] && (app.shown_tab == tab.id || app.tab_has_content(tab.id)))
      visible.push_back(&tab);
  if (visible.empty()) return;  // every tab has a window of its own
  const TabRow* shown = visible.front();
  for (const TabRow* t : visible)
    if (t->id == app.shown_tab) shown = t;
  app.shown_tab = shown->id;

  // The titles as a row of tab-like buttons that wraps onto a second row when the column is
  // narrow: every title stays whole and in view (ImGui's tab bar would cut or scroll them).
  // The first row keeps room at its right end for the pop-out button.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float gap = 2.0f * visual::view_style().scale;
  const char* pop = "\xe2\x86\x97";
  const float pop_w = ImGui::CalcTextSize(pop).x + 8.0f * visual::view_style().scale;
  const float left = ImGui::GetCursorScreenPos().x;
  const float right = left + ImGui::GetContentRegionAvail().x;
  const float first_row_y = ImGui::GetCursorScreenPos().y;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, style.ItemSpacing.y));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                      ImVec2(4.0f * visual::view_style().scale, style.FramePadding.y));
  const float pad_x = 4.0f * visual::view_style().scale;
  bool first_row = true;
  for (size_t i = 0; i < visible.size(); ++i) {
    const TabRow& tab = *visible[i];
    if (i > 0) {
      const float w = ImGui::CalcTextSize(tab.title).x + pad_x * 2;
      const float limit = first_row ? right - pop_w - gap * 4 : right;
      if (ImGui::GetItemRectMax().x + gap + w <= limit)
        ImGui::SameLine();
      else
        first_row = false;
    }
    const bool selected = &tab == shown;
    ImGui::PushStyleColor(ImGuiCol_Button,
                          ImGui::GetStyleColorVec4(selected ? ImGuiCol_TabActive : ImGuiCol_Tab));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetStyleColorVec4(ImGuiCol_TabHovered));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImGui::GetStyleColorVec4(ImGuiCol_TabActive));
    if (ImGui::Button(tab.title)) app.shown_tab = tab.id;
    ImGui::PopStyleColor(3);
  }
  // Pops the selected tab out into a window of its own, with room to spare.
  const ImVec2 after_tabs = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(right - pop_w, first_row_y));
  if (ImGui::Button(pop)) app.popped_out[int(shown->id)] = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Open %s in a window of its own (close the window to put it back)",
                      shown->title);
  ImGui::SetCursorScreenPos(after_tabs);
  ImGui::PopStyleVar(2);
  ImGui::Separator();
  ImGui::PushID(shown->window_id);
  app.tab_focus_in_sight = -1;  // until the tab says what it points at
  shown->view->draw(app);
  ImGui::PopID();
}

void draw_popped_out_tabs(GuiApp& app) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  int index = 0;
  for (const TabRow& tab : tab_rows()) {
    if (!app.popped_out[int(tab.id)]) continue;
    // Each new window opens a little offset from the last, over the middle of the app.
    const float offset = float(index++) * ImGui::GetFontSize() * 2;
    ImGui::SetNextWindowPos(
        ImVec2(vp->Pos.x + vp->Size.x * 0.3f + offset, vp->Pos.y + vp->Size.y * 0.08f + offset),
        ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(vp->Size.x * 0.6f, vp->Size.y * 0.8f), ImGuiCond_FirstUseEver);
    if (app.tab_request == tab.id) {
      ImGui::SetNextWindowFocus();  // a step asks for it: bring its window forward
      app.tab_request = ResultTab::None;
    }
    bool open = true;
    const std::string title = std::string(tab.title) + tab.window_id;
    if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoSavedSettings)) tab.view->draw(app);
    ImGui::End();
    if (!open) {
      app.popped_out[int(tab.id)] = false;
      app.tab_request = tab.id;  // back in the tab bar, selected
    }
  }
}

}  // namespace coop::app
