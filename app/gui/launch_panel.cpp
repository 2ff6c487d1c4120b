// The launch configuration editor: grid, block, the lesson's parameters with their ranges,
// backend, seed and trace capacity. Every edit re-runs the lesson in the background.
#include <cinttypes>
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// A labelled row: the label in a fixed-width column, the widget filling the rest.
void row_label(const char* label, const char* tip = nullptr) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  continue_after_label(ImGui::GetFontSize() * 5.5f, ImGui::GetFontSize() * 6);
  ImGui::SetNextItemWidth(-1);
}

bool edit_dim3(const char* id, Dim3& d) {
  uint32_t v[3] = {d.x, d.y, d.z};
  const bool changed = ImGui::InputScalarN(id, ImGuiDataType_U32, v, 3);
  if (changed) d = {v[0], v[1], v[2]};
  return changed;
}

bool edit_param(const lessons::ParamDef& p, int64_t& value) {
  row_label(p.name.c_str(), p.help.c_str());
  const std::string id = "##" + p.name;
  if (p.power_of_two) {
    // Only legal values are offered.
    bool changed = false;
    if (ImGui::BeginCombo(id.c_str(), std::to_string(value).c_str())) {
      for (int64_t v = std::max<int64_t>(1, p.min); v <= p.max; v *= 2)
        if (ImGui::Selectable(std::to_string(v).c_str(), v == value)) value = v, changed = true;
      ImGui::EndCombo();
    }
    return changed;
  }
  if (p.max - p.min <= 64) {
    return ImGui::SliderScalar(id.c_str(), ImGuiDataType_S64, &value, &p.min, &p.max);
  }
  const int64_t step = 1;
  return ImGui::InputScalar(id.c_str(), ImGuiDataType_S64, &value, &step);
}

}  // namespace

void draw_launch_config(GuiApp& app, double now) {
  const visual::ViewStyle& st = visual::view_style();
  panel_title("Launch");
  const lessons::LessonDef* l = app.lesson_def();
  if (app.replay) {
    const LaunchConfig& c = app.config;
    ImGui::Text("grid %s, block %s", c.grid.str().c_str(), c.block.str().c_str());
    if (const visual::TimelineModel* m = app.model()) {
      const TraceHeader& h = m->trace().header;
      ImGui::Text("recorded on %s (%s)", to_string(h.backend), h.device.name.c_str());
      for (const auto& [name, value] : h.params)
        ImGui::Text("%s = %s", name.c_str(), value.c_str());
      if (!h.recorded_at.empty()) ImGui::TextDisabled("%s", h.recorded_at.c_str());
    }
    if (l && ImGui::Button("Run this lesson live")) app.select_lesson(app.lesson, now);
    return;
  }
  if (!l) {
    ImGui::TextDisabled("Pick a lesson.");
    return;
  }
  bool edited = false;
  row_label("grid", "Blocks in the grid (x, y, z)");
  edited |= edit_dim3("##grid", app.config.grid);
  row_label("block", "Threads per block (x, y, z)");
  edited |= edit_dim3("##block", app.config.block);
  for (const lessons::ParamDef& p : l->params) {
    int64_t& value = app.params[p.name];
    edited |= edit_param(p, value);
  }
  row_label("backend", "auto: the GPU if there is one, else the CPU emulator");
  edited |= ImGui::Combo("##backend", &app.backend, kBackendChoices, 3);
  row_label("seed", "Emulator schedule seed: other seeds pick other legal interleavings");
  const uint64_t one = 1;
  edited |= ImGui::InputScalar("##seed", ImGuiDataType_U64, &app.seed, &one);
  row_label("trace capacity",
            "Events recorded per launch, 64 bytes each. Events past it are counted as dropped, "
            "not recorded.");
  if (ImGui::InputScalar("##capacity", ImGuiDataType_U64, &app.capacity_edit))
    app.type_trace_capacity(app.capacity_edit, now);
  if (!app.capacity_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    ImGui::TextWrapped("%s", app.capacity_error.c_str());
    ImGui::PopStyleColor();
  }
  if (edited) app.config_edited(now);

  ImGui::Spacing();
  if (ImGui::Button("Run again")) app.run_now();
  same_line_if_fits("Defaults");
  if (ImGui::Button("Defaults")) app.reset_to_defaults(now);
  if (app.running()) {
    ImGui::TextColored(ImColor(st.colors.warning), "running...");
  } else if (app.outcome) {
    const RunOutcome& o = *app.outcome;
    if (o.run.status.ok())
      ImGui::TextDisabled("ran on %s in %.2f s", o.backend.empty() ? "?" : o.backend.c_str(),
                          o.seconds);
  }
  // A failed run says why in words: the limit a value broke, or who is stuck where. What kept
  // the GPU from running it is told in full over the thread grid; here only its title.
  if (!app.running() && app.outcome && !app.outcome->run.status.ok()) {
    const RunOutcome& o = *app.outcome;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    ImGui::TextWrapped("%s", o.problem.kind != GpuProblem::None ? o.problem.title.c_str()
                                                                : o.run.status.message().c_str());
    ImGui::PopStyleColor();
  }
  if (app.outcome && !app.outcome->device.empty())
    ImGui::TextDisabled("device: %s", app.outcome->device.c_str());
}

}  // namespace coop::app
