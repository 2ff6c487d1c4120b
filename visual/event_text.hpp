// Events in words, as the views show them: values by their type, addresses as buffer[index],
// and one line per event ("sync() on block 1, phase 3", "atomicAdd total[0] += 5, old 12").
#pragma once

#include <cstdint>
#include <string>

#include "device/trace/trace.hpp"

namespace coop::visual {

// "1 block", "2 blocks": a count with its noun in the right number (`many`: an irregular plural).
std::string count_of(uint64_t n, std::string_view one, std::string_view many = {});

// The raw bits of Event::a / Event::b read as `type` ("3", "0.25", "true", "0x0000ffff").
std::string format_value(uint64_t bits, ValueType type);

// "total[0]", "temp[12] (shared)", or the raw address when no traced buffer holds it.
std::string address_name(uint64_t address, uint16_t flags, const TraceHeader& header);

// The scope an atomic's flags give it: "thread", "block", "device" (the default) or "system".
std::string atomic_scope(uint16_t flags);

// "block 3", "tile 2", "label 7", "coalesced 0xff00ff00", ...
std::string group_label(GroupKind kind, uint32_t id);

// What the event did, in one line.
// Times it names (barrier departures) count from `origin`: the launch's first event, as playback
// shows them (a GPU's raw %globaltimer is the time of day).
std::string describe_event(const Event& e, const TraceHeader& header, uint64_t origin = 0);

// The value an event leaves its thread holding (a collective's output, a load's value, a
// store's value, an atomic's old value, a broadcast); false for events that carry none.
bool event_value(const Event& e, uint64_t& bits);

// A count in at most four characters, for badges: 999, 9999, 12K, 405K, 1.2M, 16M, 4.3G.
std::string short_count(uint64_t n);

// The CUDA spelling of an atomic op ("atomicAdd"), or of a collective ("shfl_down").
std::string op_label(Op op);

}  // namespace coop::visual
