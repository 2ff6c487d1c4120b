// The tabs under the thread grid: the run's checks and results, and the selected thread's
// events; the table of every tab (kTabs), which of them have something to show, and the
// windows tabs are popped out into.
#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_checks(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  if (app.replay) {
    visual::text_dim_wrapped(app.program.empty()
                                 ? "A saved trace: nothing was run, so there is nothing to check."
                                 : "Your program checks its own results: what it printed is in "
                                   "the terminal.");
  } else if (!app.outcome) {
    ImGui::TextDisabled(app.running() ? "running..." : "No run yet.");
  } else {
    const lessons::LessonRun& run = app.outcome->run;
    if (!run.status.ok()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
      visual::text_wrapped(run.status.message());
      ImGui::PopStyleColor();
    }
    // What the run produced first, then what was verified: in a narrow tab each check is a short
    // block (verdict and name, then what was expected and what came out), never a squeezed column.
    if (!run.results.empty() &&
        ImGui::BeginTable("results", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("result", ImGuiTableColumnFlags_WidthStretch, 1);
      ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 2);
      for (const auto& [name, value] : run.results) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        visual::text_dim_wrapped(name);
        ImGui::TableNextColumn();
        visual::text_wrapped(value);
      }
      ImGui::EndTable();
      ImGui::Spacing();
    }
    const float indent = ImGui::CalcTextSize("FAIL ").x + ImGui::GetStyle().ItemSpacing.x;
    for (const lessons::Check& c : run.checks) {
      const ImU32 color = c.skipped ? st.colors.warning : c.pass ? st.colors.ok : st.colors.error;
      ImGui::TextColored(ImColor(color), "%s", c.skipped ? "skip" : c.pass ? "pass" : "FAIL");
      ImGui::SameLine(indent);
      visual::text_wrapped(c.name);
      ImGui::Indent(indent);
      visual::text_dim_wrapped("expected " + c.expected);
      visual::text_wrappedf("got %s", c.got.c_str());
      ImGui::Unindent(indent);
    }
  }
  if (const visual::TimelineModel* m = app.model()) {
    const Trace& t = m->trace();
    ImGui::Spacing();
    visual::text_dim_wrapped("trace: " + t.header.kernel + ", " +
                             visual::count_of(t.events.size(), "event") + ", " +
                             std::to_string(t.dropped()) + " dropped");
    if (!t.header.schedule.empty()) visual::text_dim_wrapped("schedule: " + t.header.schedule);
  }
}

void draw_thread_events(GuiApp& app) {
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
  DerivedViews& d = app.derived;
  if (d.listed.thread != app.selection.thread || d.listed.scope != app.selection.scope) {
    d.listed = app.selection;
    d.listed_positions = visual::selection_positions(*m, app.selection);
    d.listed_cursor = SIZE_MAX;  // scroll to the current event of the new selection
  }
  const std::vector<uint32_t>& positions = d.listed_positions;
  const bool many = last - first > 1;
  // The thread's latest event in full, wrapped: a narrow panel (a projector's) cuts the long rows
  // below, and this is the row a step talks about.
  if (const int64_t now = many ? -1 : app.snapshot.last_position(first); now >= 0) {
    const Event& e = m->at(size_t(now));
    visual::text_wrapped("now, line " + std::to_string(e.line) + ": " +
                         visual::describe_event(e, m->trace().header, m->origin()));
  }
  ImGui::BeginChild("events", ImVec2(0, 0), false,
                    ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_HorizontalScrollbar);
  // The list follows playback: when the cursor moves, the row of the event just played comes into
  // view (a step that selects a thread opens with its current event in sight).
  if (d.listed_cursor != app.playback.cursor) {
    const auto after = std::lower_bound(positions.begin(), positions.end(),
                                        uint32_t(std::min<size_t>(app.playback.cursor, UINT32_MAX)));
    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    const float row = float(after - positions.begin()) - 1;
    const float y = row * row_h;
    const float target = std::max(0.0f, y - ImGui::GetWindowHeight() * 0.4f);
    if (y < ImGui::GetScrollY() || y + row_h > ImGui::GetScrollY() + ImGui::GetWindowHeight())
      ImGui::SetScrollY(target);
    // A list drawn for the first time does not know its height yet and cannot scroll that far:
    // it tries again next frame, until the row is reachable.
    if (ImGui::GetScrollMaxY() >= target || float(positions.size()) * row_h <= ImGui::GetWindowHeight())
      d.listed_cursor = app.playback.cursor;
  }
  ImGuiListClipper clipper;
  clipper.Begin(int(positions.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const uint32_t pos = positions[size_t(i)];
      const Event& e = m->at(pos);
      const bool happened = pos < app.playback.cursor;
      std::string label = "t=" + std::to_string(e.time - m->origin()) + "  line " +
                          std::to_string(e.line) + "  ";
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

namespace {

// How each tab is drawn, by its id (app/gui/tabs.hpp names them).
void (*drawer(ResultTab tab))(GuiApp&) {
  switch (tab) {
    case ResultTab::Checks: return draw_checks;
    case ResultTab::ThreadEvents: return draw_thread_events;
    case ResultTab::Barriers: return draw_barrier_tab;
    case ResultTab::Atomics: return draw_atomic_tab;
    case ResultTab::DataFlow: return draw_flow_tab;
    case ResultTab::Memory: return draw_memory_tab;
    case ResultTab::Occupancy: return draw_occupancy_tab;
    case ResultTab::Schedule: return draw_schedule_tab;
    case ResultTab::Benchmark: return draw_benchmark_tab;
    case ResultTab::None: break;
  }
  return draw_checks;
}

}  // namespace

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
  drawer(shown->id)(app);
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
    if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoSavedSettings)) drawer(tab.id)(app);
    ImGui::End();
    if (!open) {
      app.popped_out[int(tab.id)] = false;
      app.tab_request = tab.id;  // back in the tab bar, selected
    }
  }
}

}  // namespace coop::app
