// The window's arrangement: a top bar (the lesson picker, the window-wide switches, Help), three
// columns separated by splitters, and the playback bar along the bottom.
//
//   +---------+-------------+---------------------------+
//   | steps   | step text   | thread grid               |
//   |         |             |                           |
//   |---------|-------------|---------------------------|
//   | launch  | kernel code | checks / events / ...     |
//   |         |             | (occupancy tab)           |
//   +---------+-------------+---------------------------+
//   | playback                                          |
//   +---------------------------------------------------+
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/views/grid_view.hpp"
#include "visual/views/playback_view.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

namespace coop::app {
namespace {

// Backgrounds come from glClear alone (the panel colour): ImGui's window backgrounds are
// blended quads, and every layer of them costs the software renderer a full pass over its
// pixels. Panels are told apart by their borders.
constexpr ImGuiWindowFlags kContainer = ImGuiWindowFlags_NoBackground;

void top_bar(GuiApp& app, double now) {
  const visual::ViewStyle& st = visual::view_style();
  visual::push_font(st.fonts.bold);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("coopviz");
  visual::pop_font(st.fonts.bold);
  ImGui::SameLine(0, ImGui::GetFontSize());
  // Right-aligned: run state and the window-wide switches.
  const char* state = app.running() ? "running..." : "";
  const ImGuiStyle& style = ImGui::GetStyle();
  const float switches_w = ImGui::CalcTextSize("Presentation").x + ImGui::GetFrameHeight() +
                           ImGui::CalcTextSize("Export PNG").x + ImGui::CalcTextSize("Help").x +
                           style.FramePadding.x * 6 + style.ItemSpacing.x * 4 +
                           ImGui::CalcTextSize(state).x;
  // The lesson picker: every lesson's whole title, in teaching order. In a narrow window (a
  // projector in presentation mode) the switches go to a line of their own.
  const float picker_w = ImGui::GetContentRegionAvail().x - switches_w - ImGui::GetFontSize();
  const bool one_line = picker_w >= ImGui::GetFontSize() * 12;
  draw_lesson_picker(app, now, one_line ? picker_w : ImGui::GetContentRegionAvail().x);
  if (one_line)
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + style.ItemSpacing.x,
                             ImGui::GetWindowContentRegionMax().x - switches_w));
  if (app.running()) {
    ImGui::TextColored(ImColor(st.colors.warning), "%s", state);
    ImGui::SameLine();
  }
  if (ImGui::Checkbox("Presentation", &app.presentation)) app.say("");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Large fonts and high contrast (F11: full screen)");
  ImGui::SameLine();
  if (ImGui::Button("Export PNG")) ImGui::OpenPopup("export");
  if (ImGui::BeginPopup("export")) {
    // The folder is chosen here and remembered; the file is named after the lesson and time.
    ImGui::TextUnformatted("Save a picture of the window in the folder");
    static visual::FieldText folder;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
    visual::text_field("##folder", folder, app.export_folder(), [&](std::string_view text) {
      if (text.empty()) return Status::error("give a folder (it is made if it does not exist)");
      app.export_dir = std::string(text);
      return Status();
    });
    if (ImGui::Button("Save picture")) {
      app.export_requested = 2;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Help")) ImGui::OpenPopup("help");
  if (ImGui::BeginPopup("help")) {
    ImGui::TextDisabled("Keys");
    ImGui::TextUnformatted("Space: play / pause    Left, Right: one event");
    ImGui::TextUnformatted("Shift+Left, Shift+Right (Up, Down): one barrier phase");
    ImGui::TextUnformatted("Home, End: start and end    F11: full screen");
    ImGui::Separator();
    ImGui::TextDisabled("For developers");
    ImGui::MenuItem("Every view on synthetic data", nullptr, &app.show_demo);
    ImGui::EndPopup();
  }
  // The emulator banner: students must know when they are not looking at a real GPU.
  if (app.outcome && !app.outcome->banner.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.warning));
    visual::text_wrapped(app.outcome->banner);
    ImGui::PopStyleColor();
  }
  if (app.replay) {
    if (app.program.empty())
      ImGui::TextDisabled("Replaying %s: nothing runs while it is shown.", app.trace_path.c_str());
    else
      visual::text_dim_wrapped("The launches of " + app.program + ", run on the " +
                               (app.model() && app.model()->trace().header.backend == Backend::Gpu
                                    ? "GPU"
                                    : "emulator") +
                               ": save it in any editor to run it again.");
  }
  if (!app.notice.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, app.notice_is_error
                                             ? ImGui::ColorConvertU32ToFloat4(st.colors.error)
                                             : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    visual::text_wrapped(app.notice);
    ImGui::PopStyleColor();
  }
}

// Events the trace had no room for: the views then miss part of the story, so this is said
// where the eye is, above the grid.
void dropped_warning(const GuiApp& app) {
  const std::string text = app.dropped_warning();
  if (text.empty()) return;
  const visual::ViewStyle& st = visual::view_style();
  visual::push_font(st.fonts.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.warning));
  visual::text_wrapped(text);
  ImGui::PopStyleColor();
  visual::pop_font(st.fonts.bold);
}

void right_column(GuiApp& app, float height) {
  const visual::ViewStyle& st = visual::view_style();
  const float split = 6.0f * st.scale;
  // A small grid takes only what it needs; the tabs below get the rest.
  float grid_h = app.layout.grid * height;
  if (app.grid_wanted_height > 0) grid_h = std::min(grid_h, std::max(80.0f, app.grid_wanted_height));
  const float shown_grid_h = grid_h;
  float tabs_h = height - grid_h - split;
  ImGui::BeginChild("grid_panel", ImVec2(0, grid_h), true, kContainer);
  // The GPU could not run the lesson, or stopped part way: said first, above whatever launches
  // finished before it.
  const bool problem =
      !app.running() && app.outcome && app.outcome->problem.kind != GpuProblem::None;
  if (problem) draw_gpu_problem(app);
  // Any other failure is said first, in full, above the launches that ran before it (a deadlock
  // leaves the trace of who got where).
  const bool failed = !problem && !app.running() && app.outcome && !app.outcome->run.status.ok();
  if (failed) {
    visual::push_font(st.fonts.bold);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    visual::text_wrappedf("The run stopped: %s", app.outcome->run.status.message().c_str());
    ImGui::PopStyleColor();
    visual::pop_font(st.fonts.bold);
  }
  const visual::TimelineModel* m = app.model();
  if (m) {
    if (problem || failed) ImGui::Separator();
    const LaunchConfig& l = m->launch();
    const std::string title = "Threads: " + visual::count_of(l.grid.count(), "block") + " of " +
                              std::to_string(l.block.count()) + " (" +
                              visual::count_of(m->warps_per_block(), "warp") +
                              (l.grid.count() == 1 ? ")" : " each)");
    panel_title(title.c_str());
    // The kernel this launch ran: a picker when the run made several launches.
    const std::string current = m->trace().header.kernel;
    if (app.models.size() > 1) {
      float widest = 0;
      for (const auto& other : app.models)
        widest = std::max(widest,
                          ImGui::CalcTextSize(("00: " + other->trace().header.kernel).c_str()).x);
      const float combo_w = widest + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
      visual::same_line_if_room(combo_w);
      const float shown_w = std::min(combo_w, ImGui::GetContentRegionAvail().x);
      ImGui::SetNextItemWidth(shown_w);
      const std::string preview = visual::fit_words(
          std::to_string(app.launch + 1) + ": " + current,
          shown_w - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2, false);
      if (ImGui::BeginCombo("##launch", preview.c_str())) {
        for (size_t i = 0; i < app.models.size(); ++i)
          if (ImGui::Selectable(
                  (std::to_string(i + 1) + ": " + app.models[i]->trace().header.kernel).c_str(),
                  int(i) == app.launch))
            app.show_launch(int(i));
        ImGui::EndCombo();
      }
    } else if (!current.empty()) {
      visual::same_line_if_room(ImGui::CalcTextSize(current.c_str()).x + ImGui::GetFontSize() * 4);
      ImGui::AlignTextToFramePadding();
      ImGui::TextDisabled("kernel %s", current.c_str());
    }
    if (app.presentation) {
      // The Launch panel is hidden in presentation mode: what ran is said here.
      std::string ran = "grid " + visual::dims_text(l.grid) + ", block " + visual::dims_text(l.block);
      if (l.dynamic_smem > 0) ran += ", " + std::to_string(l.dynamic_smem) + " B dynamic shared";
      for (const auto& [name, value] : m->trace().header.params) ran += ", " + name + " " + value;
      visual::text_dim_wrapped(ran);
    }
    dropped_warning(app);
    m = app.model();
    const visual::GridViewResult r =
        visual::draw_grid_view("grid", *m, app.snapshot, app.grid, app.selection);
    app.grid_wanted_height = app.grid.fit ? r.wanted_height : 0;
    if (r.clicked_thread >= 0) {
      app.selection.thread = r.clicked_thread;
      app.tab_request = ResultTab::ThreadEvents;
    }
  } else if (!problem && !failed) {
    panel_title("Threads");
    ImGui::TextDisabled(app.running() ? "running..." : "Pick a lesson to run it.");
  }
  ImGui::EndChild();
  splitter("split_grid", false, ImGui::GetContentRegionAvail().x, grid_h, tabs_h, 80, 80);
  if (ImGui::IsItemHovered()) {
    // The tabs (occupancy, benchmark charts) sometimes want most of the column.
    ImGui::SetTooltip("Drag to share the column; double-click: tabs large / grid large");
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      grid_h = grid_h > height * 0.4f ? height * 0.25f : height * 0.6f;
      tabs_h = height - grid_h - split;
    }
  }
  ImGui::BeginChild("tabs_panel", ImVec2(0, tabs_h), true, kContainer);
  draw_result_tabs(app);
  ImGui::EndChild();
  if (grid_h != shown_grid_h) app.layout.grid = grid_h / height;  // the user dragged it
}

}  // namespace

void same_line_if_fits(const char* label) { visual::same_line_if_room(label); }

void continue_after_label(float column, float min_width) {
  const float label_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x +
                          ImGui::GetScrollX() + ImGui::GetStyle().ItemSpacing.x;
  // The widget goes beside its label only where it keeps at least min_width; in a narrow panel
  // (presentation mode, a small window) it takes a line of its own instead of being squeezed.
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (label_end <= column && right - column >= min_width)
    ImGui::SameLine(column);
  else if (right - label_end >= min_width)
    ImGui::SameLine(label_end);
}

bool splitter(const char* id, bool vertical, float length, float& a, float& b, float min_a,
              float min_b) {
  const float thickness = 6.0f * visual::view_style().scale;
  const ImVec2 size = vertical ? ImVec2(thickness, length) : ImVec2(length, thickness);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  const bool active = ImGui::IsItemActive();
  const bool hovered = ImGui::IsItemHovered();
  if (hovered || active)
    ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  const ImU32 color = ImGui::GetColorU32(active    ? ImGuiCol_SeparatorActive
                                         : hovered ? ImGuiCol_SeparatorHovered
                                                   : ImGuiCol_Separator);
  const ImVec2 mid(at.x + size.x * 0.5f, at.y + size.y * 0.5f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (vertical)
    dl->AddLine(ImVec2(mid.x, at.y), ImVec2(mid.x, at.y + size.y), color,
                hovered || active ? 3 : 1);
  else
    dl->AddLine(ImVec2(at.x, mid.y), ImVec2(at.x + size.x, mid.y), color,
                hovered || active ? 3 : 1);
  // A grip of three dots in the middle says "this can be dragged" before the mouse finds it.
  const float dot = std::max(1.5f, thickness * 0.3f), gap = dot * 3.2f;
  const ImU32 grip = ImGui::GetColorU32(hovered || active ? ImGuiCol_SeparatorActive
                                                          : ImGuiCol_TextDisabled);
  for (int k = -1; k <= 1; ++k)
    dl->AddCircleFilled(vertical ? ImVec2(mid.x, mid.y + float(k) * gap)
                                 : ImVec2(mid.x + float(k) * gap, mid.y),
                        dot, grip);
  if (active) {
    const ImVec2 d = ImGui::GetIO().MouseDelta;
    float delta = vertical ? d.x : d.y;
    delta = std::clamp(delta, min_a - a, b - min_b);
    a += delta;
    b -= delta;
  }
  return active;
}

void draw_app(GuiApp& app, double now) {
  const ImGuiIO& io = ImGui::GetIO();
  const visual::ViewStyle& st = visual::view_style();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::Begin("coopviz", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoBackground |  // glClear paints it: one layer less to blend
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PopStyleVar(2);
  top_bar(app, now);

  const float split = 6.0f * st.scale;
  const float bar_h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float body_h = std::max(100.0f, avail.y - bar_h);
  const float width = std::max(300.0f, avail.x);
  const float min_col = 120.0f * st.scale;
  // Presentation mode is for showing the steps to a room: the step text, the code and the
  // threads get the whole width; the steps are reached with Previous and Next (and the step
  // picker above the text), the Launch panel by leaving presentation mode.
  const bool show_left = !app.presentation;
  float left = show_left ? app.layout.left * width : 0;
  float middle = show_left ? app.layout.middle * width : 0.42f * width;
  float right = width - left - middle - (show_left ? 2 : 1) * split;
  const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));

  // A bordered panel with the normal item spacing inside (the columns themselves have none,
  // so splitters sit flush between panels).
  auto panel = [&](const char* id, float height, auto&& draw) {
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, spacing);
    ImGui::BeginChild(id, ImVec2(0, height), true, kContainer);
    draw();
    ImGui::EndChild();
    ImGui::PopStyleVar();
  };

  // Left column: the steps above the launch configuration.
  if (show_left) {
    ImGui::BeginChild("left", ImVec2(left, body_h), false, kContainer);
    float steps_h = app.layout.steps * body_h, launch_h = body_h - steps_h - split;
    panel("steps", steps_h, [&] { draw_steps(app, now); });
    splitter("split_steps", false, ImGui::GetContentRegionAvail().x, steps_h, launch_h, 60, 80);
    panel("launch", launch_h, [&] { draw_launch_config(app, now); });
    app.layout.steps = steps_h / body_h;
    ImGui::EndChild();
    ImGui::SameLine();
    splitter("split_left", true, body_h, left, middle, min_col, min_col);
    ImGui::SameLine();
  }

  // Middle column: lesson text above the kernel source.
  ImGui::BeginChild("middle", ImVec2(middle, body_h), false, kContainer);
  {
    // In presentation mode the step text, read by a room at large type, gets at least 60 %.
    const float text_share = app.presentation ? std::max(app.layout.text, 0.6f) : app.layout.text;
    float text_h = text_share * body_h, code_h = body_h - text_h - split;
    panel("text", text_h, [&] { draw_lesson_text(app, now); });
    splitter("split_text", false, ImGui::GetContentRegionAvail().x, text_h, code_h, 60, 80);
    panel("code_panel", code_h, [&] { draw_code_panel(app); });
    if (!app.presentation || text_h / body_h != text_share) app.layout.text = text_h / body_h;
  }
  ImGui::EndChild();
  ImGui::SameLine();
  splitter("split_middle", true, body_h, middle, right, min_col, min_col * 2);
  ImGui::SameLine();

  ImGui::BeginChild("right", ImVec2(right, body_h), false, kContainer);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, spacing);
  right_column(app, body_h);
  ImGui::PopStyleVar();
  ImGui::EndChild();
  ImGui::PopStyleVar();
  if (show_left) {  // presentation mode's proportions are its own
    app.layout.left = left / width;
    app.layout.middle = middle / width;
  }

  // Playback along the bottom, and its keys anywhere in the window.
  ImGui::Dummy(ImVec2(0, ImGui::GetStyle().ItemSpacing.y * 0.5f));
  if (const visual::TimelineModel* m = app.model()) {
    visual::draw_playback_bar(*m, app.playback);
    visual::handle_playback_keys(*m, app.playback);
    app.snapshot.update(*m, app.playback.cursor);
  } else {
    ImGui::TextDisabled("No trace to play yet.");
  }
  ImGui::End();
  draw_popped_out_tabs(app);
}

}  // namespace coop::app
