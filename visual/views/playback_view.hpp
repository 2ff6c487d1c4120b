// The transport bar under the views: start, phase and event steps, play/pause, end, a scrub
// slider, speed and loop; and the keyboard: space, arrows (Shift or Up/Down: by phase),
// Home/End.
#pragma once

#include <string>

#include "visual/playback.hpp"

namespace coop::visual {

// Draws the bar at the cursor across the available width. Returns true if it moved playback.
bool draw_playback_bar(const TimelineModel& model, PlaybackState& playback);

// Applies playback keys unless a text field has the keyboard. Returns true if playback moved.
bool handle_playback_keys(const TimelineModel& model, PlaybackState& playback);

}  // namespace coop::visual
