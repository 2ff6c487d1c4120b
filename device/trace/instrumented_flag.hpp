// The Event::flags bit of the loads and stores the emulator sees without traced(...), through
// its compiler instrumentation (device/emu/memory_record.hpp says what their fields hold). The
// GPU records no such events, so comparisons of the two backends leave them out.
#pragma once

#include <cstdint>

#include "device/trace/event.hpp"

namespace coop {

// The bit after event.hpp's EventFlag bits.
inline constexpr uint16_t kFlagInstrumented = 1u << 11;
static_assert(kFlagInstrumented > kFlagStuck, "kFlagInstrumented must not share an EventFlag bit");

}  // namespace coop
