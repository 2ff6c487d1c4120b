// Collective data flow: the latest collective call before the playback cursor, drawn as its
// members' boxes with inputs above and outputs below; shuffles get an arrow from the lane each
// value came from, reductions a combining tree with the partial values.
#pragma once

#include "visual/field_text.hpp"

#include <cstdint>
#include <optional>

#include "visual/collective_flow.hpp"

namespace coop::visual {

struct FlowViewSettings {
  int line = 0;  // only collectives on this source line (0: any)
  FieldText line_field;  // the line as typed
};

// Returns a cursor to seek to (a member was clicked: just after its event), or -1.
int64_t draw_flow_view(const char* id, const TimelineModel& model,
                       const std::optional<CollectiveCall>& call, FlowViewSettings& settings);

}  // namespace coop::visual
