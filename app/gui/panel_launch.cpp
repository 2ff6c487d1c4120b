// The launch configuration editor: grid, block, the lesson's parameters with their ranges,
// backend, seed and trace capacity. Every edit re-runs the lesson in the background.
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

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

// A field of the panel, typed as text and committed through the app (parsed, checked, kept).
void field(GuiApp& app, const std::string& name, const std::string& shown, double now) {
  visual::text_field(("##" + name).c_str(), app.fields[name], shown,
                     [&](std::string_view text) { return app.commit_field(name, text, now); });
}

void edit_param(GuiApp& app, const lessons::ParamDef& p, double now) {
  const std::string tip = p.help + " (" + std::to_string(p.min) + " to " + std::to_string(p.max) +
                          (p.power_of_two ? ", a power of two" : "") + ")";
  row_label(p.name.c_str(), tip.c_str());
  if (const auto imposed = p.imposed ? p.imposed(app.params) : std::nullopt) {
    // Another parameter decides it: the value that runs, greyed, and which parameter to change.
    ImGui::BeginDisabled();
    std::string shown = std::to_string(imposed->value);
    ImGui::InputText(("##" + p.name).c_str(), shown.data(), shown.size() + 1,
                     ImGuiInputTextFlags_ReadOnly);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("set by %s; %s", imposed->by.c_str(), tip.c_str());
    return;
  }
  const int64_t value = app.params[p.name];
  if (p.power_of_two) {
    // Only legal values are offered.
    if (ImGui::BeginCombo(("##" + p.name).c_str(), std::to_string(value).c_str())) {
      for (int64_t v = std::max<int64_t>(1, p.min); v <= p.max; v *= 2)
        if (ImGui::Selectable(std::to_string(v).c_str(), v == value))
          app.type_into("param:" + p.name, std::to_string(v), now);
      ImGui::EndCombo();
    }
    return;
  }
  field(app, "param:" + p.name, std::to_string(value), now);
}

// The backends a run can ask for, listed as the command line names them.
void backend_list(GuiApp& app, double now) {
  const char* words[std::size(kBackendRequests)];
  int shown = 0;
  for (size_t i = 0; i < std::size(kBackendRequests); ++i) {
    words[i] = to_string(kBackendRequests[i]);
    if (kBackendRequests[i] == app.backend) shown = int(i);
  }
  if (ImGui::Combo("##backend", &shown, words, int(std::size(words)))) {
    app.backend = kBackendRequests[shown];
    app.config_edited(now);
  }
}

// The memory and races switches, a lesson's or a program's: switched, the run is redone
// recording every load and store (the emulator only).
void recording_switches(GuiApp& app, double now) {
  row_label("memory",
            "Emulator: record all shared and global loads and stores, not only traced ones, and "
            "show their sectors per request and bank conflicts beside the code (more events: "
            "slower views)");
  if (const lessons::LessonDef* l = app.lesson_def(); l && l->records_memory && !app.replay) {
    // The lesson is about its accesses: they are recorded whatever the switch says.
    bool on = true;
    ImGui::BeginDisabled();
    ImGui::Checkbox("all##memory", &on);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("This lesson always records every load and store on the emulator");
  } else if (ImGui::Checkbox("all##memory", &app.record_memory)) {
    app.config_edited(now);
  }
  // Beside it where the panel has room (a checkbox: its box, a gap, its label).
  visual::same_line_if_room(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                            ImGui::CalcTextSize("races").x);
  // Races need every access recorded: switching them on records memory for the run.
  if (ImGui::Checkbox("races##races", &app.find_races)) app.config_edited(now);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Emulator: record every access and find data races (two accesses to one byte, one a "
        "write, not both atomic, that nothing orders); marked in the code, listed in Checks");
}

// A program's launches: the shown one as it ran, and its kernel's grid and block to try others
// with (a launch override: every launch of that kernel, on either backend, until cleared).
void draw_program_launch(GuiApp& app, double now) {
  const visual::TimelineModel* m = app.model();
  if (!m)
    return visual::text_dim_wrapped("No launch to change: " + app.program.file +
                                    " has not run yet.");
  const TraceHeader& h = m->trace().header;
  const LaunchConfig& ran = m->launch();
  visual::text_wrapped("kernel " + h.kernel + ", launch " + std::to_string(app.launch + 1) +
                       " of " + std::to_string(app.models.size()));
  if (h.untraced > 0)
    visual::text_dim_wrapped("then " + std::to_string(h.untraced) +
                             " more launches like it ran untraced, at full speed "
                             "(--trace-launches all traces every launch)");
  row_label("grid",
            "Blocks in the grid for every launch of this kernel: X, X,Y or X,Y,Z, or * "
            "for the program's own");
  field(app, "grid", visual::dims_text(ran.grid), now);
  row_label("block",
            "Threads per block for every launch of this kernel: X, X,Y or X,Y,Z "
            "(1024 in all at most), or * for the program's own");
  field(app, "block", visual::dims_text(ran.block), now);
  if (ran.dynamic_smem > 0)
    visual::text_dim_wrapped("dynamic shared memory " + std::to_string(ran.dynamic_smem) +
                             " bytes per block, as the program asks");
  if (ran.mode != LaunchMode::Normal)
    visual::text_dim_wrapped(
        std::string(ran.mode == LaunchMode::Cooperative ? "cooperative" : "cluster") + " launch");
  if (const LaunchOverride* o = app.shown_launch_override()) {
    // The program's own shape stays in view: the trace says what it asked for.
    const auto asked = [&](const char* key) {
      auto it = h.params.find(std::string("program's ") + key);
      return it == h.params.end() ? std::string("?") : it->second;
    };
    const visual::ViewStyle& st = visual::view_style();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.warning));
    visual::text_wrapped("overridden (--launch " + to_string(*o) + "): the program asks for grid " +
                         asked("grid") + ", block " + asked("block"));
    ImGui::PopStyleColor();
    if (ImGui::Button("Program's own launch")) app.clear_program_launch();
  } else {
    visual::text_dim_wrapped("as the program launches it; type a grid or block to try another");
  }
  recording_switches(app, now);
  visual::text_dim_wrapped(std::string("recorded on ") + to_string(h.backend) + " (" +
                           h.device.name + ")");
}

}  // namespace

void draw_launch(GuiApp& app, double now) {
  const visual::ViewStyle& st = visual::view_style();
  panel_title("Launch");
  const lessons::LessonDef* l = app.lesson_def();
  if (app.program_shown()) return draw_program_launch(app, now);
  if (app.replay) {
    const LaunchConfig c = app.panel_launch();
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
  // Grid and block show what ran (a lesson may derive them from its parameters) until the user
  // types a value of their own.
  const LaunchConfig shown = app.panel_launch();
  row_label("grid", "Blocks in the grid: X, X,Y or X,Y,Z");
  field(app, "grid", visual::dims_text(shown.grid), now);
  row_label("block", "Threads per block: X, X,Y or X,Y,Z (1024 in all at most)");
  field(app, "block", visual::dims_text(shown.block), now);
  if (shown.dynamic_smem > 0)  // what ran, whichever parameter set it (occupancy's examples do)
    visual::text_dim_wrapped("dynamic shared memory " + std::to_string(shown.dynamic_smem) +
                             " bytes per block");
  if (shown.mode != LaunchMode::Normal) {
    // How the shown launch was made, which decides what is legal in it (grid.sync, clusters).
    visual::text_dim_wrapped(std::string(shown.mode == LaunchMode::Cooperative ? "cooperative" : "cluster") +
                " launch" +
                (shown.mode == LaunchMode::Cluster
                     ? ", clusters of " + visual::dims_text(shown.cluster) + " blocks"
                     : ""));
  }
  for (const lessons::ParamDef& p : l->params) edit_param(app, p, now);
  row_label("backend", "auto: the GPU if there is one, else the CPU emulator");
  backend_list(app, now);
  row_label("schedule",
            "Emulator: lockstep runs a warp's lanes together, step point by step point; random "
            "picks the next warp and block at every step point, loads and stores included, by "
            "the seed; its also lets a warp's lanes advance one at a time, as Volta and later may");
  int schedule = int(app.schedule);
  if (ImGui::Combo("##schedule", &schedule, kScheduleNames, int(std::size(kScheduleNames)))) {
    app.schedule = Schedule(schedule);
    app.config_edited(now);
  }
  row_label("seed",
            "Emulator schedule seed: other seeds pick other legal interleavings, the same one "
            "every run");
  field(app, "seed", std::to_string(app.seed), now);
  row_label("trace capacity",
            "Events recorded per launch, 64 bytes each. Events past it are counted as dropped, "
            "not recorded.");
  field(app, "capacity", std::to_string(app.trace_capacity), now);
  recording_switches(app, now);

  ImGui::Spacing();
  if (ImGui::Button("Run again")) app.run_now();
  same_line_if_fits("Defaults");
  if (ImGui::Button("Defaults")) app.reset_to_defaults(now);
  if (app.running()) {
    ImGui::TextColored(ImColor(st.colors.warning), "running...");  // short: never cut
  } else if (app.outcome) {
    const RunOutcome& o = *app.outcome;
    if (o.run.status.ok())
    {
      char ran[96];
      std::snprintf(ran, sizeof ran, "ran on %s in %.2f s", o.backend ? to_string(*o.backend) : "?",
                    o.seconds);
      visual::text_dim_wrapped(ran);
    }
  }
  // A failed run says why in words: the limit a value broke, or who is stuck where. What kept
  // the GPU from running it is told in full over the thread grid; here only its title.
  if (!app.running() && app.outcome && !app.outcome->run.status.ok()) {
    const RunOutcome& o = *app.outcome;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    visual::text_wrapped(o.problem.kind != GpuProblem::None ? o.problem.title
                                                            : o.run.status.message());
    ImGui::PopStyleColor();
  }
  if (app.outcome && !app.outcome->device.empty())
    visual::text_dim_wrapped("device: " + app.outcome->device);
}

}  // namespace coop::app
