// The races of the launch shown: found once per launch when the Launch panel's races switch is
// on, marked in the code view and listed in the Checks tab, each with buttons that move playback
// to the moment of either access.
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

}  // namespace

const std::vector<Race>& shown_races(GuiApp& app) {
  const visual::TimelineModel* m = app.model();
  const std::pair<const visual::TimelineModel*, uint64_t> key{m, m ? m->trace().events.size() : 0};
  if (!app.find_races || !m) {
    app.races.clear();
    app.races_of = {nullptr, 0};
  } else if (app.races_of != key) {
    // The detector walks every event: once per launch shown, not per frame.
    app.races = find_races(m->trace());
    app.races_of = key;
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

void draw_race_list(GuiApp& app) {
  if (!app.find_races) return;
  const visual::TimelineModel* m = app.model();
  if (!m) return;
  const visual::ViewStyle& st = visual::view_style();
  const std::vector<Race>& races = shown_races(app);
  if (races.empty()) {
    ImGui::TextColored(ImColor(st.colors.ok), "no data race in this launch");
    ImGui::Spacing();
    return;
  }
  ImGui::TextColored(ImColor(st.colors.error), "%zu data race%s in this launch", races.size(),
                     races.size() == 1 ? "" : "s");
  int id = 0;
  for (const Race& r : races) {
    ImGui::PushID(id++);
    visual::text_wrapped(describe_race(r, m->trace().header));
    if (ImGui::SmallButton("first access")) seek_from_view(app, position_after(*m, r.first));
    ImGui::SameLine();
    if (ImGui::SmallButton("second access")) seek_from_view(app, position_after(*m, r.second));
    ImGui::PopID();
  }
  ImGui::Spacing();
}

}  // namespace coop::app
