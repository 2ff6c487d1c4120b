// Whose update a read-add-write race lost, read back from the trace of its traced loads and
// stores (a lesson program's claim "in the race to F", lessons/trace_claims.hpp). Every racing
// thread loads the total once and stores (what it read + its positive share) once. Each load is
// matched with the store whose value it read, and the final value is followed back through those
// matches to 0: the threads on that chain are the ones whose shares the total holds; every other
// share was lost. Values decide the matches, so the analysis holds on a GPU, whose recorder order
// is only close to the memory order; that order only breaks ties.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device/trace/trace.hpp"

namespace coop::lessons {

struct RaceReport {
  std::vector<uint32_t> kept;         // threads whose share is in the final value, oldest first
  std::vector<uint32_t> lost_unread;  // threads whose store was overwritten before anyone read it
  std::vector<uint32_t> lost_later;   // threads whose store was read, but only by threads whose
                                      // own stores were lost in turn
  std::string problem;                // not empty: the trace does not explain the final value
  int64_t missing = 0;                // the lost threads' shares, added up
  size_t racers() const { return kept.size() + lost_unread.size() + lost_later.size(); }
};

// Analyses the traced loads and stores of `trace` (one load then one store per racing thread,
// all on one int) that left `final_value` in memory.
RaceReport analyse_race(const Trace& trace, int final_value);

}  // namespace coop::lessons
