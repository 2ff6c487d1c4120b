// Fonts and ImGui style for the desktop app.
#pragma once

namespace coop::app {

// The text size in pixels presentation mode uses on a display of width x height pixels: as large
// as a room needs, and small enough that a step's text and 60 columns of its code still fit
// beside the threads on a 1024x768 or 1280x720 projector.
float presentation_font_px(int width, int height);

// Rebuilds the font atlas and the ImGui style for a content `scale` (HiDPI) and the classroom
// presentation mode (its text `presentation_px` tall), and publishes fonts and colours to the
// views (visual::set_view_style). The caller re-uploads the font texture afterwards.
void build_theme(float scale, bool presentation, float presentation_px = 23.0f);

}  // namespace coop::app
