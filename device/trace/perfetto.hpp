// Export to the Chrome/Perfetto trace-event JSON format, so a coopviz trace opens in
// ui.perfetto.dev or chrome://tracing: one process per block, one track per warp, barrier phases
// as slices (first arrival of the warp to its last departure), atomics and other events as
// instants carrying their values.
#pragma once

#include <string>
#include <vector>

#include "device/trace/trace.hpp"

namespace coop {

// GPU timestamps (ns) become microseconds since the first event; the emulator's logical steps are
// written as one microsecond each.
std::string to_perfetto_json(const std::vector<Trace>& launches);

}  // namespace coop
