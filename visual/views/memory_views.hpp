// Views of memory: the order atomics landed per address (with racy loads and stores and the
// updates they lost), and the arrays as traced accesses left them at the playback cursor.
#pragma once

#include <cstdint>
#include <vector>

#include "visual/memory_order.hpp"
#include "visual/memory_state.hpp"

namespace coop::visual {

// Tickets in landing order per address, the one just landed brought into view when it lands;
// returns a cursor to seek to (a ticket or access was clicked), or -1. `newest_in_sight`, when
// given: whether the ticket just landed is in sight (true when none has landed).
int64_t draw_atomic_order_view(const char* id, const TimelineModel& model,
                               const std::vector<AddressHistory>& histories, size_t cursor,
                               bool* newest_in_sight = nullptr);

// Touched elements of each array with their current values, coloured by the writing block;
// returns a cursor to seek to (a cell was clicked: its last access), or -1.
int64_t draw_memory_view(const char* id, const TimelineModel& model,
                         const std::vector<MemoryArray>& arrays, size_t cursor);

}  // namespace coop::visual
