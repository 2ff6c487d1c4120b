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
#include "visual/views/code_view.hpp"
#include "visual/views/playback_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// Backgrounds come from glClear alone (the panel colour): ImGui's window backgrounds are
// blended quads, and every layer of them costs the software renderer a full pass over its
// pixels. Panels are told apart by their borders.
constexpr ImGuiWindowFlags kContainer = ImGuiWindowFlags_NoBackground;

void right_column(GuiApp& app, float height) {
  const visual::ViewStyle& st = visual::view_style();
  const float split = 6.0f * st.scale;
  // A small grid takes only what it needs; the tabs below get the rest.
  float grid_h = app.layout.grid * height;
  if (app.grid_wanted_height > 0) grid_h = std::min(grid_h, std::max(80.0f, app.grid_wanted_height));
  // The most the grid takes where it asks for more than its share: the tabs keep a third of the
  // window's height.
  const float most = height - split - ImGui::GetIO().DisplaySize.y / 3 - 1;
  // A warp zoomed for the room (presentation) gets the room its cells want.
  if (app.grid.focus_warp >= 0 && app.grid_wanted_height > grid_h)
    grid_h = std::max(grid_h, std::min(app.grid_wanted_height, most));
  // Whatever share a tab asks for, the grid keeps its title, toolbar and legend and a few rows of
  // cells in sight: large type (presentation) makes those fill a small share on their own.
  if (app.grid_cells_top > 0)
    grid_h = std::max(grid_h, std::min(app.grid_cells_top + kUsableGridPx +
                                           ImGui::GetStyle().WindowPadding.y + 4,
                                       most));
  const float shown_grid_h = grid_h;
  float tabs_h = height - grid_h - split;
  // While the step's question is asked, its threads and results stay covered.
  const bool covered = app.questions.asking();
  ImGui::BeginChild("grid_panel", ImVec2(0, grid_h), true, kContainer);
  if (covered)
    draw_question_cover(app);
  else
    draw_thread_grid(app);
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
  if (!covered) draw_result_tabs(app);
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
  draw_top_bar(app, now);

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
  // Presenting, the middle column is as wide as kPresentedCodeColumns of code need (panel
  // padding, borders and a scrollbar of the panel included), and never under 42 % or over 70 %
  // of the window.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float code_room = visual::code_view_width(kPresentedCodeColumns, app.find_races) +
                          2 * (style.WindowPadding.x + style.ChildBorderSize) + style.ScrollbarSize;
  float middle = show_left ? app.layout.middle * width
                           : std::clamp(code_room, 0.42f * width, 0.7f * width);
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
    panel("launch", launch_h, [&] { draw_launch(app, now); });
    app.layout.steps = steps_h / body_h;
    ImGui::EndChild();
    ImGui::SameLine();
    splitter("split_left", true, body_h, left, middle, min_col, min_col);
    ImGui::SameLine();
  }

  // Middle column: lesson text above the kernel source.
  ImGui::BeginChild("middle", ImVec2(middle, body_h), false, kContainer);
  {
    // In presentation mode the step text, read by a room at large type, gets at least 64 %: a
    // step's whole text shows without scrolling, and about ten lines of code stay in sight.
    const float text_share = app.presentation ? std::max(app.layout.text, 0.64f) : app.layout.text;
    float text_h = text_share * body_h, code_h = body_h - text_h - split;
    panel("text", text_h, [&] { draw_lesson_text(app, now); });
    splitter("split_text", false, ImGui::GetContentRegionAvail().x, text_h, code_h, 60, 80);
    panel("code_panel", code_h, [&] { draw_kernel_code(app); });
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
  draw_pack_windows(app, now);
}

}  // namespace coop::app
