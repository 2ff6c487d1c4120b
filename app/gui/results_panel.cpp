// The tabs under the thread grid: the run's checks and results, and the selected thread's
// events; other views add tabs through extra_tabs().
#include <algorithm>
#include <string>
#include <utility>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

std::vector<ExtraTab>& extra_tabs() {
  static std::vector<ExtraTab> tabs;
  return tabs;
}

void draw_checks(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  if (app.replay) {
    ImGui::TextDisabled("A saved trace: nothing was run, so there is nothing to check.");
  } else if (!app.outcome) {
    ImGui::TextDisabled(app.running() ? "running..." : "No run yet.");
  } else {
    const lessons::LessonRun& run = app.outcome->run;
    if (!run.status.ok()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
      ImGui::TextWrapped("%s", run.status.message().c_str());
      ImGui::PopStyleColor();
    }
    if (!run.checks.empty() &&
        ImGui::BeginTable(
            "checks", 4,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable)) {
      ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 3);
      ImGui::TableSetupColumn("check", ImGuiTableColumnFlags_WidthStretch, 3);
      ImGui::TableSetupColumn("expected", ImGuiTableColumnFlags_WidthStretch, 2);
      ImGui::TableSetupColumn("got", ImGuiTableColumnFlags_WidthStretch, 2);
      ImGui::TableHeadersRow();
      for (const lessons::Check& c : run.checks) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const ImU32 color = c.skipped ? st.colors.warning : c.pass ? st.colors.ok : st.colors.error;
        ImGui::TextColored(ImColor(color), "%s", c.skipped ? "skip" : c.pass ? "pass" : "FAIL");
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.name.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.expected.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.got.c_str());
      }
      ImGui::EndTable();
    }
    if (!run.results.empty()) {
      ImGui::Spacing();
      for (const auto& [name, value] : run.results) {
        ImGui::TextDisabled("%s", name.c_str());
        ImGui::SameLine(ImGui::GetFontSize() * 7);
        ImGui::TextUnformatted(value.c_str());
      }
    }
  }
  if (const visual::TimelineModel* m = app.model()) {
    const Trace& t = m->trace();
    ImGui::Spacing();
    ImGui::TextDisabled("trace: %s, %zu events, %llu dropped", t.header.kernel.c_str(),
                        t.events.size(), (unsigned long long)t.dropped());
    if (t.dropped() > 0)
      ImGui::TextColored(ImColor(st.colors.warning), "%llu events dropped: raise --trace-capacity",
                         (unsigned long long)t.dropped());
    if (!t.header.schedule.empty()) ImGui::TextDisabled("schedule: %s", t.header.schedule.c_str());
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
  ImGui::RadioButton("thread", &scope, 0);
  ImGui::SameLine();
  ImGui::RadioButton("warp", &scope, 1);
  ImGui::SameLine();
  ImGui::RadioButton("block", &scope, 2);
  app.selection.scope = visual::SelectionScope(scope);
  ImGui::SameLine();
  ImGui::TextUnformatted(visual::selection_label(*m, app.selection).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("clear")) {
    app.selection = {};
    return;
  }
  DerivedViews& d = app.derived;
  if (d.listed.thread != app.selection.thread || d.listed.scope != app.selection.scope) {
    d.listed = app.selection;
    d.listed_positions = visual::selection_positions(*m, app.selection);
  }
  const std::vector<uint32_t>& positions = d.listed_positions;
  const bool many = last - first > 1;
  ImGui::BeginChild("events", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  ImGuiListClipper clipper;
  clipper.Begin(int(positions.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const uint32_t pos = positions[size_t(i)];
      const Event& e = m->at(pos);
      const bool happened = pos < app.playback.cursor;
      std::string label = "t=" + std::to_string(e.time) + "  line " + std::to_string(e.line) + "  ";
      if (many) label += "thread " + std::to_string(e.thread) + ": ";
      label += visual::describe_event(e, m->trace().header);
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

void draw_result_tabs(GuiApp& app) {
  if (!ImGui::BeginTabBar("results")) return;
  struct Tab {
    const char* title;
    ResultTab id;
    void (*draw)(GuiApp&);
  };
  static constexpr Tab kTabs[] = {{"Checks", ResultTab::Checks, draw_checks},
                                  {"Thread events", ResultTab::ThreadEvents, draw_thread_events},
                                  {"Barriers", ResultTab::Barriers, draw_barrier_tab},
                                  {"Atomics", ResultTab::Atomics, draw_atomic_tab},
                                  {"Data flow", ResultTab::DataFlow, draw_flow_tab},
                                  {"Memory", ResultTab::Memory, draw_memory_tab},
                                  {"Occupancy", ResultTab::Occupancy, draw_occupancy_tab},
                                  {"SM schedule", ResultTab::Schedule, draw_schedule_tab}};
  for (const Tab& tab : kTabs) {
    const ImGuiTabItemFlags flags = app.tab_request == tab.id ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(tab.title, nullptr, flags)) {
      tab.draw(app);
      ImGui::EndTabItem();
    }
  }
  app.tab_request = ResultTab::None;
  for (ExtraTab& tab : extra_tabs())
    if (ImGui::BeginTabItem(tab.title.c_str())) {
      tab.draw(app);
      ImGui::EndTabItem();
    }
  ImGui::EndTabBar();
}

}  // namespace coop::app
