// The window's panels, drawn with ImGui from the GuiApp state. layout.cpp arranges them with
// splitters (ImGui 1.86 has no docking); each panel lives in the file named after it.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/gui_app.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

// Draws the whole window for one frame (`now`: the app clock in seconds).
void draw_app(GuiApp& app, double now);

// [layout.cpp] A draggable bar between two panels; `a` and `b` are their sizes in pixels.
bool splitter(const char* id, bool vertical, float length, float& a, float& b, float min_a,
              float min_b);
// A panel's title line (here, not in layout.cpp: the tabs' files use it too).
inline void panel_title(const char* title) {
  const visual::ViewStyle& st = visual::view_style();
  visual::push_font(st.fonts.bold);
  ImGui::TextUnformatted(title);
  visual::pop_font(st.fonts.bold);
}
// Continues the line for a button labelled `label` if it fits, else starts a new line.
void same_line_if_fits(const char* label);
// After a label: continues the line at `column` (from the panel's left), or just past a label
// wider than that; when less than `min_width` would be left the next item starts a line of its
// own. Long labels (bins_per_block, a result's name) never run under what follows them.
void continue_after_label(float column, float min_width);

// [lesson_panels.cpp]
// The lesson picker of the top bar, `width` pixels wide.
void draw_lesson_picker(GuiApp& app, double now, float width);
void draw_steps(GuiApp& app, double now);
void draw_lesson_text(GuiApp& app, double now);
void draw_code_panel(GuiApp& app);

// [problem_panel.cpp] Why the GPU could not run the lesson, with the emulator and a recorded
// trace offered instead.
void draw_gpu_problem(GuiApp& app);

// [race_list.cpp] The races of the launch shown (found once per launch, when find_races is on),
// their marks for the code view (index = line), and their list with buttons that move playback
// to either access.
const std::vector<Race>& shown_races(GuiApp& app);
std::vector<std::string> race_marks(GuiApp& app);
void draw_race_list(GuiApp& app);

// [launch_panel.cpp]
void draw_launch_config(GuiApp& app, double now);

// [results_panel.cpp] The tabs under the thread grid, and those popped out into windows.
void draw_result_tabs(GuiApp& app);
void draw_popped_out_tabs(GuiApp& app);

// [tabs] Shared by the tabs' views (app/gui/tab_<name>.cpp).
// Moves playback where a view asked (a clicked bar, ticket or cell; -1: nowhere) and stops it.
inline void seek_from_view(GuiApp& app, int64_t cursor) {
  if (const visual::TimelineModel* m = app.model(); m && cursor >= 0) {
    visual::seek(app.playback, *m, size_t(cursor));
    app.playback.playing = false;
  }
}
// Says why there is no trace to show, if there is none.
inline bool no_trace_yet(const GuiApp& app) {
  if (app.model()) return false;
  ImGui::TextDisabled(app.running() ? "running..." : "No trace yet.");
  return true;
}

}  // namespace coop::app
