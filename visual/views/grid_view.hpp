// The thread grid: blocks -> warps -> lanes, each thread coloured by the group it belongs to at
// the playback cursor (tile, block, label, ...), dimmed while it waits at a barrier, with ranks
// written in when cells are large enough and the threads of data races marked. Cells under 3 px
// are folded into warp stripes or block tiles, and only visible blocks are drawn, so a
// 64K-thread grid stays cheap.
#pragma once

#include <cstdint>

#include <imgui.h>

#include "visual/race_marks.hpp"
#include "visual/selection.hpp"
#include "visual/thread_snapshot.hpp"
#include "visual/views/grid_view_settings.hpp"

namespace coop::visual {

struct GridViewResult {
  int64_t clicked_thread = -1;  // a thread clicked this frame
  int64_t hovered_thread = -1;
  uint32_t drawn_rects = 0;  // cells, stripes and tiles drawn (for the benchmark and tests)
  // Height the whole view would need to show the grid at its largest cell size: a layout can
  // give the rest of its space to other panels.
  float wanted_height = 0;
  // Ink height in pixels of the smallest digits written in the cells this frame (0: none).
  float label_px = 0;
  // Height in pixels of the part of the cells in sight this frame: 0 when the toolbar and legend
  // above them take the whole panel.
  float cells_px = 0;
  float cells_h = 0;  // the height of all of them
  // Where the cells begin in the window the view was drawn in, from its top (unscrolled): what
  // the title, toolbar and legend above them take.
  float cells_top = 0;
};

// Draws the toolbar and the grid filling `size` (0: the rest of the window), with the threads
// `races` marks (null or empty: no race shown) and their legend entries.
GridViewResult draw_grid_view(const char* id, const TimelineModel& model,
                              const ThreadSnapshot& snapshot, GridViewSettings& settings,
                              const Selection& selected, ImVec2 size = ImVec2(0, 0),
                              const GridRaceMarks* races = nullptr);

}  // namespace coop::visual
