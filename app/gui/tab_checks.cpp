// The Checks tab: what the run produced and what was verified against the CPU reference, and
// the size of the trace.
#include <imgui.h>

#include <string>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

void draw_checks_tab(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  bool verdict_in_sight = true;
  draw_race_list(app);
  if (app.replay) {
    visual::text_dim_wrapped(!app.program_shown()
                                 ? "A saved trace: nothing was run, so there is nothing to check."
                                 : "Your program checks its own results: what it printed is "
                                   "in the panel \"What " +
                                       app.program.file + " printed\".");
  } else if (!app.outcome) {
    ImGui::TextDisabled(app.running() ? "running..." : "No run yet.");
  } else {
    const lessons::LessonRun& run = app.outcome->run;
    if (!run.status.ok()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
      visual::text_wrapped(run.status.message());
      ImGui::PopStyleColor();
    }
    // The verdict in one line at the top, where the tab opens; then what the run produced (the
    // values a step speaks of); then each check. In a narrow tab each check is a short block
    // (verdict and name, then what was expected and what came out), never a squeezed column.
    if (!run.checks.empty()) {
      size_t failed = 0, skipped = 0;
      for (const lessons::Check& c : run.checks) {
        failed += !c.skipped && !c.pass;
        skipped += c.skipped;
      }
      const size_t n = run.checks.size();
      const std::string checks = visual::count_of(n, "check");
      const std::string verdict =
          failed ? visual::count_of(failed, "check") + " of " + std::to_string(n) + " FAILED"
          : skipped == n ? "all " + checks + " skipped here"
          : skipped      ? std::to_string(n - skipped) + " of " + checks + " pass, " +
                          std::to_string(skipped) + " skipped here"
          : n == 1 ? "the check passes"
                   : "all " + checks + " pass";
      // Where the checks are, when it fits beside the verdict.
      const char* where = run.results.empty() ? "(below)" : "(below the results)";
      const bool room = ImGui::CalcTextSize(verdict.c_str()).x + ImGui::GetStyle().ItemSpacing.x +
                            ImGui::CalcTextSize(where).x <=
                        ImGui::GetContentRegionAvail().x;
      ImGui::TextColored(ImColor(failed         ? st.colors.error
                                 : skipped == n ? st.colors.warning
                                                : st.colors.ok),
                         "%s", verdict.c_str());
      verdict_in_sight = ImGui::IsItemVisible();
      if (room) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", where);
      }
    }
    if (!run.results.empty() &&
        ImGui::BeginTable("results", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("result", ImGuiTableColumnFlags_WidthStretch, 1);
      ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 2);
      // The shown launch's kernel's results first ("many_live_values, --maxrregcount 32"): they
      // are what a step on that launch speaks of. Two passes, in the run's order within each.
      const std::string kernel = app.model() ? app.model()->trace().header.kernel : "";
      auto of_kernel = [&](const std::string& name) {
        return !kernel.empty() && name.starts_with(kernel) &&
               (name.size() == kernel.size() || name[kernel.size()] == ' ' ||
                name[kernel.size()] == ',');
      };
      for (const bool first : {true, false})
        for (const auto& [name, value] : run.results) {
          if (of_kernel(name) != first) continue;
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
  app.tab_focus_in_sight = verdict_in_sight ? 1 : 0;
}

}  // namespace

// Every run has something to check, or says why it has not.
extern const TabView kChecksTab = {draw_checks_tab};

}  // namespace coop::app
