// One thread's cell as the thread grid draws it (its colour, its waiting frame, its rank and value
// written in) and the marks of data races: shared by the whole grid (grid_view.cpp) and the
// presentation's zoom on one warp, so that both draw a thread the same way.
#pragma once

#include <cstdint>

#include <imgui.h>

#include "visual/race_marks.hpp"
#include "visual/thread_snapshot.hpp"
#include "visual/thread_colors.hpp"
#include "visual/views/style.hpp"

namespace coop::visual {

// Threads waiting at a barrier keep their group's hue at this brightness.
inline constexpr float kWaitingShade = 0.4f;

// The colour each thread (or most of a folded warp or block) is drawn in.
struct Colorer {
  const ThreadSnapshot& snap;
  ColorBy by;
  GroupKind kind;
  uint32_t block_threads;
  const ViewColors& colors;

  ImU32 thread(uint32_t t) const;
  // The colour most of threads [first, last) show (a folded warp or block).
  ImU32 majority(uint32_t first, uint32_t last, uint32_t stride = 1) const;
};

// What a cell writes in: its rank (in the group coloured), and in large cells its value.
struct CellText {
  bool ranks = true;
  bool values = false;
  // Numbers whose digits would be shorter than this many pixels are left out: in presentation
  // mode a number the room cannot read is noise.
  float min_digit_px = 0;
};

// Draws thread `t`'s cell of side `cell` at `a`. Returns the ink height in pixels of the
// smallest digits written in it (0: none).
float draw_lane_cell(ImDrawList* dl, ImVec2 a, float cell, uint32_t t, const Colorer& color,
                     const TimelineModel& model, const CellText& text);

// The ink height of the digits of `font` drawn at `size` pixels.
float digit_height(const ImFont* font, float size);

// A data race's mark on a cell, warp stripe or block square [a, z]: a frame in the race colour
// outside the area, at least 14 (picked) or 9 pixels across (scaled) so that a mark on a cell of
// a few pixels still shows, and where the area is large enough a corner of that colour. The
// legend draws its entries with this same function.
void race_mark(ImDrawList* dl, ImVec2 a, ImVec2 z, RaceMark mark, float scale);
// How far outside an area of `side` pixels that frame reaches, and its line width.
struct RaceFrame {
  float width;  // of the line
  float out;    // from the area's edge to the line's middle
};
RaceFrame race_frame(RaceMark mark, float side, float scale);

}  // namespace coop::visual
