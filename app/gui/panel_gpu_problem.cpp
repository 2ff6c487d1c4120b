// [SECTION] What the thread-grid panel shows when the GPU could not run the lesson: what
// happened, in plain words, and two ways on: the emulator, or a trace recorded on a real GPU.
#include <cstdio>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_gpu_problem(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  const RunOutcome& o = *app.outcome;
  const GpuProblemText& p = o.problem;
  visual::push_font(st.fonts.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.warning));
  visual::text_wrapped(p.title);
  ImGui::PopStyleColor();
  visual::pop_font(st.fonts.bold);
  visual::text_wrapped(p.explanation);
  visual::text_dim_wrapped("Details: " + o.run.status.message());
  ImGui::Spacing();

  if (ImGui::Button("Run on the emulator")) app.run_on_emulator();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Run this lesson on the CPU emulator (the backend becomes emu)");
  constexpr const char* kOpen = "Open the trace recorded on a GPU";
  const std::string recorded = app.recorded_trace();
  same_line_if_fits(kOpen);
  if (!recorded.empty()) {
    if (ImGui::Button(kOpen)) app.open_recorded(recorded);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", recorded.c_str());
  } else {
    // None ships for this lesson (or coopviz cannot find its assets): one recorded elsewhere
    // can be named here.
    ImGui::BeginDisabled(app.trace_field.empty());
    const bool open = ImGui::Button(kOpen);
    ImGui::EndDisabled();
    visual::text_wrappedf(
        "coopviz found no trace recorded on a GPU for this lesson. A .cvt file from "
        "`coopviz run %s --backend gpu --trace FILE` on a machine with a GPU opens here:",
        app.lesson_def() ? app.lesson_def()->id.c_str() : "LESSON");
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s", app.trace_field.c_str());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##trace_file", "path of a .cvt or .json trace", buf, sizeof buf))
      app.trace_field = buf;
    if (open) app.open_recorded(app.trace_field);
  }
  if (!app.trace_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    visual::text_wrapped(app.trace_error);
    ImGui::PopStyleColor();
  }
}

}  // namespace coop::app
