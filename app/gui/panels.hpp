// The window's panels, drawn with ImGui from the GuiApp state. layout.cpp arranges them with
// splitters (ImGui 1.86 has no docking); each panel lives in the file named after it.
#pragma once

#include <string>
#include <vector>

#include "app/gui/gui_app.hpp"

namespace coop::app {

// Draws the whole window for one frame (`now`: the app clock in seconds).
void draw_app(GuiApp& app, double now);

// [layout.cpp] A draggable bar between two panels; `a` and `b` are their sizes in pixels.
bool splitter(const char* id, bool vertical, float length, float& a, float& b, float min_a,
              float min_b);
// A panel's title line.
void panel_title(const char* title);
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

// [launch_panel.cpp]
void draw_launch_config(GuiApp& app, double now);

// [results_panel.cpp] The tabs under the thread grid, and those popped out into windows.
void draw_result_tabs(GuiApp& app);
void draw_popped_out_tabs(GuiApp& app);
void draw_checks(GuiApp& app);
void draw_thread_events(GuiApp& app);
// [views_panel.cpp] The barrier, atomic, data-flow and memory tabs.
void draw_barrier_tab(GuiApp& app);
void draw_atomic_tab(GuiApp& app);
void draw_flow_tab(GuiApp& app);
void draw_memory_tab(GuiApp& app);
// [occupancy_tab.cpp] The occupancy panel and the per-SM block schedule.
void draw_occupancy_tab(GuiApp& app);
void draw_schedule_tab(GuiApp& app);
// [benchmark_tab.cpp] The reduction benchmark: bandwidth of every variant and the block sweep.
void draw_benchmark_tab(GuiApp& app);

}  // namespace coop::app
