// The compact encoding of an event array in trace files: byte k of every 64-byte record is stored
// together (a "shuffle"), then compressed with zstd. Fields change slowly from one event to the
// next, so the shuffled planes are long runs: lesson traces shrink about a hundredfold, and a
// 10 M-event file still loads in well under two seconds.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "device/launch/status.hpp"
#include "device/trace/trace.hpp"

namespace coop {

inline constexpr const char* kPackedEventEncoding = "shuffle64-zstd";

std::string pack_events(std::span<const Event> events);

// Unpacks exactly `count` events; a frame of another size, or a damaged one, is an error.
Status unpack_events(std::string_view packed, uint64_t count, EventVector& out);

}  // namespace coop
