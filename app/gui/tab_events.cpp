// The Thread events tab: every event of the thread, warp or block selected in the grid, in
// playback order, following playback.
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// The events of one selection, listed once per selection.
struct EventList {
  visual::Selection selection;      // the selection `positions` belongs to
  std::vector<uint32_t> positions;  // its events, in playback order
  size_t cursor = SIZE_MAX;         // the cursor the list last scrolled to
  float room = 0;                   // the list's visible height when it did
};

void draw_events_tab(GuiApp& app) {
  const visual::TimelineModel* m = app.model();
  const auto [first, last] =
      m ? visual::selected_threads(*m, app.selection) : std::pair<uint32_t, uint32_t>{};
  if (first == last) {
    ImGui::TextDisabled(
        "Click a thread in the grid to list its events (or its warp's, or block's).");
    return;
  }
  int scope = int(app.selection.scope);
  const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::RadioButton("thread", &scope, 0);
  visual::same_line_if_room(radio + ImGui::CalcTextSize("warp").x);
  ImGui::RadioButton("warp", &scope, 1);
  visual::same_line_if_room(radio + ImGui::CalcTextSize("block").x);
  ImGui::RadioButton("block", &scope, 2);
  app.selection.scope = visual::SelectionScope(scope);
  const std::string label = visual::selection_label(*m, app.selection);
  visual::same_line_if_room(ImGui::CalcTextSize(label.c_str()).x);
  ImGui::TextUnformatted(label.c_str());
  visual::same_line_if_room("clear");
  if (ImGui::SmallButton("clear")) {
    app.selection = {};
    return;
  }
  EventList& d = tab_data<EventList>(app, ResultTab::ThreadEvents);
  if (d.selection.thread != app.selection.thread || d.selection.scope != app.selection.scope) {
    d.selection = app.selection;
    d.positions = visual::selection_positions(*m, app.selection);
    d.cursor = SIZE_MAX;  // scroll to the current event of the new selection
  }
  const std::vector<uint32_t>& positions = d.positions;
  const bool many = last - first > 1;
  // The thread's latest event in full, wrapped: a narrow panel (a projector's) cuts the long rows
  // below, and this is the row a step talks about.
  if (const int64_t now = many ? -1 : app.snapshot.last_position(first); now >= 0) {
    const Event& e = m->at(size_t(now));
    visual::text_wrapped("now, line " + std::to_string(e.line) + ": " +
                         visual::describe_event(e, m->trace().header, m->origin()));
  }
  // The horizontal scrollbar is always there: rows are only laid out where visible, so one that
  // came and went with the widest row in view would change the list's height as it scrolls.
  ImGui::BeginChild("events", ImVec2(0, 0), false,
                    ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_HorizontalScrollbar |
                        ImGuiWindowFlags_AlwaysHorizontalScrollbar);
  // The rows in focus: at the step's moment, those of its lines played so far (its text speaks of
  // them: "thread 77's four creations"; the event just played is written out above the list);
  // else, and once playback moves on, the row just played.
  const size_t played =
      size_t(std::lower_bound(positions.begin(), positions.end(),
                              uint32_t(std::min<size_t>(app.playback.cursor, UINT32_MAX))) -
             positions.begin());
  const std::vector<int> lines =
      app.playback.cursor == app.step_moment ? app.step_lines() : std::vector<int>{};
  size_t focus_first = SIZE_MAX, focus_last = 0;
  for (size_t i = 0; i < played; ++i)
    if (std::find(lines.begin(), lines.end(), int(m->at(positions[i]).line)) != lines.end())
      focus_first = std::min(focus_first, i), focus_last = i;
  if (focus_first == SIZE_MAX) focus_first = focus_last = played > 0 ? played - 1 : 0;
  // A list that changed height (a scrollbar came, the window was resized) looks again.
  if (const ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->GetClipRectMax().y - dl->GetClipRectMin().y != d.room) {
    d.room = dl->GetClipRectMax().y - dl->GetClipRectMin().y;
    d.cursor = SIZE_MAX;
  }
  const float row_h = ImGui::GetTextLineHeightWithSpacing();
  const float list_top = ImGui::GetCursorScreenPos().y;
  const float top = list_top + float(focus_first) * row_h;
  const float bottom = list_top + float(focus_last + 1) * row_h -
                       ImGui::GetStyle().ItemSpacing.y;  // its text's foot
  // The list follows playback: when the cursor moves, those rows come into view (a step that
  // selects a thread opens with them in sight); between moves the reader scrolls freely.
  if (d.cursor != app.playback.cursor && visual::bring_into_sight(top, bottom, 0.4f))
    d.cursor = app.playback.cursor;
  app.tab_focus_in_sight = positions.empty() || visual::rows_in_sight(top, bottom) ? 1 : 0;
  ImGuiListClipper clipper;
  clipper.Begin(int(positions.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const uint32_t pos = positions[size_t(i)];
      const Event& e = m->at(pos);
      const bool happened = pos < app.playback.cursor;
      std::string label =
          "t=" + std::to_string(e.time - m->origin()) + "  line " + std::to_string(e.line) + "  ";
      if (many) label += "thread " + std::to_string(e.thread) + ": ";
      label += visual::describe_event(e, m->trace().header, m->origin());
      ImGui::PushID(i);
      if (!happened)
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      const bool current = int64_t(pos) == app.snapshot.last_position(e.thread);
      if (ImGui::Selectable(label.c_str(), current)) visual::seek(app.playback, *m, pos + 1);
      if (!happened) ImGui::PopStyleColor();
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
}

// Something is selected in a launch.
bool has_selection(GuiApp& app) {
  return app.model() != nullptr && !app.selection.empty();
}

}  // namespace

extern const TabView kEventsTab = {draw_events_tab, 0, has_selection};

}  // namespace coop::app
