// The races of the launch shown: found once per launch when the Launch panel's races switch is
// on, marked in the code view and the thread grid and listed in the Checks tab. Clicking a race
// picks it (the grid marks its two threads above the others); its buttons move playback to the
// moment of either access, with that access's thread selected.
#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// The playback position just after `side`'s event (the access just played), or -1.
int64_t position_after(const visual::TimelineModel& m, const RaceAccess& side) {
  for (const uint32_t p : m.thread_positions(side.thread))
    if (m.at(p).sequence == side.sequence) return int64_t(p) + 1;
  return -1;
}

void mark(std::vector<std::string>& marks, uint16_t line, const std::string& text) {
  if (line >= marks.size()) marks.resize(size_t(line) + 1);
  if (marks[line].empty()) marks[line] = text;
}

// Races are looked for in emulator traces only: a GPU records neither every load and store nor
// the order they happened in.
bool races_found_here(const visual::TimelineModel& m) {
  return m.trace().header.backend == Backend::Emu;
}

// One race of the list: its text, clickable to pick it (a bar in the race colour beside the
// picked one), then the buttons to either access.
void race_entry(GuiApp& app, const visual::TimelineModel& m, int index) {
  const visual::ViewStyle& st = visual::view_style();
  const Race& r = app.races[size_t(index)];
  const bool picked = index == app.picked_race;
  const float bar = ImGui::GetFontSize() * 0.6f;
  ImGui::BeginGroup();
  ImGui::Indent(bar);
  visual::text_wrapped(describe_race(r, m.trace().header));
  ImGui::Unindent(bar);
  ImGui::EndGroup();
  const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
  if (picked)
    ImGui::GetWindowDrawList()->AddRectFilled(a, ImVec2(a.x + bar * 0.5f, z.y), st.colors.race);
  if (ImGui::IsItemHovered()) {
    ImGui::GetWindowDrawList()->AddRect(a, z, st.colors.line_hover);
    ImGui::SetTooltip("Click: mark its two threads in the thread grid");
    if (ImGui::IsMouseClicked(0)) app.picked_race = index;
  }
  ImGui::Indent(bar);
  if (ImGui::SmallButton("first access")) jump_to_race_access(app, index, false);
  ImGui::SameLine();
  if (ImGui::SmallButton("second access")) jump_to_race_access(app, index, true);
  if (picked) {
    visual::same_line_if_room(ImGui::CalcTextSize("marked in the grid").x);
    ImGui::TextColored(ImColor(st.colors.race), "marked in the grid");
  }
  ImGui::Unindent(bar);
}

}  // namespace

const std::vector<Race>& shown_races(GuiApp& app) {
  const visual::TimelineModel* m = app.model();
  const std::pair<const visual::TimelineModel*, uint64_t> key{m, m ? m->trace().events.size() : 0};
  if (!app.find_races || !m || !races_found_here(*m)) {
    app.races.clear();
    app.races_of = {nullptr, 0};
    app.picked_race = -1;
  } else if (app.races_of != key) {
    // The detector walks every event: once per launch shown, not per frame.
    app.races = find_races(m->trace());
    app.races_of = key;
    app.picked_race = app.races.empty() ? -1 : 0;
  }
  return app.races;
}

std::vector<std::string> race_marks(GuiApp& app) {
  std::vector<std::string> marks;
  for (const Race& r : shown_races(app)) {
    const std::string with = std::string("Data race: ") + to_string(r.first.kind) + " at line " +
                             std::to_string(r.first.line) + " and " + to_string(r.second.kind) +
                             " at line " + std::to_string(r.second.line) +
                             " touch one byte unordered (Checks lists them).";
    mark(marks, r.first.line, with);
    mark(marks, r.second.line, with);
  }
  return marks;
}

visual::GridRaceMarks shown_race_marks(GuiApp& app) {
  return visual::grid_race_marks(shown_races(app), app.picked_race);
}

void jump_to_race_access(GuiApp& app, int index, bool second) {
  const visual::TimelineModel* m = app.model();
  const std::vector<Race>& races = shown_races(app);
  if (!m || index < 0 || size_t(index) >= races.size()) return;
  const RaceAccess& side = second ? races[size_t(index)].second : races[size_t(index)].first;
  app.picked_race = index;
  app.selection = {int64_t(side.thread), visual::SelectionScope::Thread};
  seek_from_view(app, position_after(*m, side));
}

void draw_race_list(GuiApp& app) {
  if (!app.find_races) return;
  const visual::TimelineModel* m = app.model();
  if (!m) return;
  const visual::ViewStyle& st = visual::view_style();
  if (!races_found_here(*m)) {
    ImGui::TextColored(ImColor(st.colors.warning), "races are found on the emulator only");
    visual::text_wrapped(
        "This launch ran on the GPU, which records neither every load and store nor the order "
        "they happened in. Run it on the emulator (backend emu) to see its data races.");
    ImGui::Spacing();
    return;
  }
  const std::vector<Race>& races = shown_races(app);
  if (races.empty()) {
    ImGui::TextColored(ImColor(st.colors.ok), "no data race in this launch");
    ImGui::Spacing();
    return;
  }
  // In the race colour, as the badges and the grid's marks that point here.
  ImGui::TextColored(ImColor(st.colors.race), "%zu data race%s in this launch", races.size(),
                     races.size() == 1 ? "" : "s");
  for (int i = 0; i < int(races.size()); ++i) {
    ImGui::PushID(i);
    race_entry(app, *m, i);
    ImGui::PopID();
  }
  ImGui::Spacing();
}

}  // namespace coop::app
