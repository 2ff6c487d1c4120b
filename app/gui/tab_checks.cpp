// The Checks tab: what the run produced and what was verified against the CPU reference, and
// the size of the trace.
#include <imgui.h>

#include <string>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

void draw(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  bool first_check_in_sight = true;
  draw_race_list(app);
  if (app.replay) {
    visual::text_dim_wrapped(!app.program_shown()
                                 ? "A saved trace: nothing was run, so there is nothing to check."
                                 : "Your program checks its own results: what it printed is "
                                   "in the panel \"What " + app.program.file + " printed\".");
  } else if (!app.outcome) {
    ImGui::TextDisabled(app.running() ? "running..." : "No run yet.");
  } else {
    const lessons::LessonRun& run = app.outcome->run;
    if (!run.status.ok()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
      visual::text_wrapped(run.status.message());
      ImGui::PopStyleColor();
    }
    // What was verified first (a step that sends the reader here speaks of its verdicts), then
    // what the run produced. In a narrow tab each check is a short block (verdict and name, then
    // what was expected and what came out), never a squeezed column.
    const float indent = ImGui::CalcTextSize("FAIL ").x + ImGui::GetStyle().ItemSpacing.x;
    for (const lessons::Check& c : run.checks) {
      const ImU32 color = c.skipped ? st.colors.warning : c.pass ? st.colors.ok : st.colors.error;
      ImGui::TextColored(ImColor(color), "%s", c.skipped ? "skip" : c.pass ? "pass" : "FAIL");
      if (&c == &run.checks.front()) first_check_in_sight = ImGui::IsItemVisible();
      ImGui::SameLine(indent);
      visual::text_wrapped(c.name);
      ImGui::Indent(indent);
      visual::text_dim_wrapped("expected " + c.expected);
      visual::text_wrappedf("got %s", c.got.c_str());
      ImGui::Unindent(indent);
    }
    if (!run.results.empty()) {
      ImGui::Spacing();
      if (ImGui::BeginTable("results", 2,
                            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
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
      }
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
  app.tab_focus_in_sight = first_check_in_sight ? 1 : 0;
}

}  // namespace

// Every run has something to check, or says why it has not.
extern const TabView kChecksTab = {draw};

}  // namespace coop::app
