// How the thread grid is shown (visual/views/grid_view.hpp draws it): kept apart from the view so
// that the app's state (app/gui/gui_app.hpp) holds it without including ImGui.
#pragma once

#include <cstdint>

#include "visual/thread_colors.hpp"

namespace coop::visual {

// The smallest digits a classroom reads off a projector, in pixels of ink: presentation mode
// draws no number in a cell smaller than this.
inline constexpr float kReadableDigitPx = 14.0f;

struct GridViewSettings {
  ColorBy color_by = ColorBy::Group;
  GroupKind group = GroupKind::None;  // None: colour by blockIdx (see default_color_group)
  bool fit = true;                    // choose the cell size that shows the whole grid
  float cell = 14;                    // pixels per lane when !fit
  bool show_ranks = true;             // rank numbers in cells of at least ~11 px
  bool show_values = true;            // and the value each thread holds, from ~34 px
  bool show_toolbar = true;
  // Numbers whose digits would be drawn shorter than this (pixels) are left out (presentation).
  float min_digit_px = 0;
  // >= 0: only this warp (grid-wide index), its lanes in rows of eight large cells, and a line
  // saying so (presentation, for a step about the numbers in the cells).
  int64_t focus_warp = -1;
  bool overflowed_last_frame = false;  // fitted, the smallest cells did not fit: it scrolls
};

}  // namespace coop::visual
