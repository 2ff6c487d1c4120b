// Finding a named moment (device/trace/moment.hpp) in a timeline: where playback must stand so
// that what the moment names has just happened.
#pragma once

#include <optional>
#include <span>

#include "device/trace/moment.hpp"
#include "visual/timeline_model.hpp"

namespace coop::visual {

// The playback cursor (events [0, cursor) shown) of `moment` in `model`, with `lines` the step's
// highlighted source lines; nullopt when the launch has no such event. The event just before
// the cursor is always one the moment matches, so it lies on the step's lines.
std::optional<size_t> moment_cursor(const TimelineModel& model, const MomentSpec& moment,
                                    std::span<const int> lines);

}  // namespace coop::visual
