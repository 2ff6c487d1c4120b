// The window's panels, drawn with ImGui from the GuiApp state. layout.cpp arranges them with
// splitters (ImGui 1.86 has no docking); each panel lives in app/gui/panel_<name>.cpp, as each
// result tab lives in app/gui/tab_<name>.cpp (tabs.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/gui_app.hpp"
#include "visual/race_marks.hpp"
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

// Each panel is drawn by draw_<name>, in app/gui/panel_<name>.cpp.
// [panel_top_bar.cpp] The lesson picker, the window-wide switches and the window's notices.
void draw_top_bar(GuiApp& app, double now);
// [panel_pack.cpp] The class pack's navigator, under the top bar while a pack is open (Previous,
// its items with the current one marked, Next, Summary, Close and the item's notes), and the
// windows that open a pack and show its classroom summary.
void draw_pack_bar(GuiApp& app, double now);
void draw_pack_windows(GuiApp& app, double now);
// [panel_steps.cpp] The lesson's steps.
void draw_steps(GuiApp& app, double now);
// [panel_launch.cpp] The launch configuration editor: grid, block, the lesson's parameters,
// backend, seed, trace capacity and memory recording; every edit re-runs the lesson.
void draw_launch(GuiApp& app, double now);
// [panel_lesson_text.cpp] The current step's text, or the whole lesson's.
void draw_lesson_text(GuiApp& app, double now);
// [panel_question.cpp] Predict, then run: the step's question above its text, the cover over the
// grid and tabs while it is asked, and the top bar's switch with this session's score.
void draw_step_question(GuiApp& app);
void draw_question_cover(GuiApp& app);
void draw_question_switch(GuiApp& app);
// [panel_program_output.cpp] In the lesson text's place while the user's program is shown: what
// it printed (its own words, not a verdict of coopviz), and the errors of a save that did not
// compile.
void draw_program_output(GuiApp& app);
// [panel_kernel_code.cpp] The kernel source, with the threads at each line.
void draw_kernel_code(GuiApp& app);
// The threads at each line (index = line) that the code view marks: the selected threads', else
// every thread's. None while a question is asked: a count can be its answer (how many threads
// reach the atomicAdd), as the grid and tabs that are covered would be.
std::optional<std::vector<uint32_t>> code_line_counts(GuiApp& app);
// [panel_thread_grid.cpp] The launch shown and its threads, after why a run stopped, if it did.
void draw_thread_grid(GuiApp& app);
// [panel_gpu_problem.cpp] Inside the thread grid panel: why the GPU could not run the lesson,
// with the emulator and a recorded trace offered instead.
void draw_gpu_problem(GuiApp& app);
// [panel_race_list.cpp] The races of the launch shown (found once per launch, when find_races is
// on and the launch ran on the emulator), their marks for the code view (index = line) and for
// the thread grid (the picked race's threads above the others), and their list: a click picks a
// race, its buttons move playback to either access.
const std::vector<Race>& shown_races(GuiApp& app);
std::vector<std::string> race_marks(GuiApp& app);
visual::GridRaceMarks shown_race_marks(GuiApp& app);
// Picks race `index` and moves playback just after its first (or second) access, with that
// access's thread selected: the grid shows it, marked, at the moment of its access.
void jump_to_race_access(GuiApp& app, int index, bool second);
void draw_race_list(GuiApp& app);
// [panel_result_tabs.cpp] The tabs under the thread grid, and those popped out into windows.
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
