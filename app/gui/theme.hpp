// Fonts and ImGui style for the desktop app.
#pragma once

namespace coop::app {

// Rebuilds the font atlas and the ImGui style for a content `scale` (HiDPI) and the classroom
// presentation mode, and publishes fonts and colours to the views (visual::set_view_style).
// The caller re-uploads the font texture afterwards.
void build_theme(float scale, bool presentation);

}  // namespace coop::app
