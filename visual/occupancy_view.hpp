// The occupancy panel and the per-SM block timeline, drawn with Dear ImGui. Pure view code: the
// numbers come from visual/occupancy_panel_model.hpp and device/occupancy/block_schedule.hpp.
// Built only with COOPVIZ_GUI=ON.
#pragma once

#include <optional>

#include "device/occupancy/block_schedule.hpp"
#include "visual/occupancy_panel_model.hpp"

namespace coop::visual {

// Draws the panel into the current ImGui window: controls, one SM as its four resources filled by
// the resident blocks (the limiter outlined), occupancy charts against block size, registers per
// thread and shared memory per block with the current point marked (click a chart to move it),
// and for a cooperative launch the largest legal grid and the error a larger grid gets.
void draw_occupancy_panel(const OccupancyPanelInput& input, OccupancyPanelState& state);

struct BlockScheduleViewState {
  float lane_height = 8;  // pixels per SM lane
};

// One lane per SM, one bar per block from its start to its end, a time axis in the schedule's
// unit and a legend; a modelled schedule says so. `now` (in the schedule's time) is the playback
// moment: a line across the lanes, blocks after it outlined and blocks before it faded.
void draw_block_schedule(const BlockSchedule& schedule, BlockScheduleViewState& state,
                         std::optional<double> now = std::nullopt);

// A window with the panel on synthetic data (demo_occupancy_input) and a modelled schedule: the
// hook the app shell and the visual demo window call. `open` may be null.
void show_occupancy_demo_window(bool* open = nullptr);

}  // namespace coop::visual
