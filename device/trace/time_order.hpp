// What a trace's timestamps may claim, checked against what the hardware guarantees: nobody
// leaves a barrier before the last member arrived, and a thread does one thing after another.
// The views draw GPU traces by time (barrier bars, "waiting at a barrier", playback order), so
// every recorded trace must pass this; lessons check it on every run, tests on every shipped
// trace. One definition for both backends: the emulator's exact clock passes it trivially.
#pragma once

#include <cstdint>
#include <string>

#include "device/trace/trace.hpp"

namespace coop {

// The barrier-like events (sync, __syncthreads, grid/cluster/tile/coalesced sync, split barrier
// phases, memcpy_async waits) grouped into instances: one instance is one phase of one group.
//
// (1) Early departure: some member's departure (Event::b of Barrier, BarrierWait, CopyWait) is
//     before the latest arrival (Event::time of Barrier, BarrierArrive, CopyWait) of its instance.
// (2) Out of order: a thread's event is timed before the departure of a barrier it had already
//     left, or an arrival is timed before something the thread recorded earlier.
struct TimeOrderReport {
  uint64_t instances = 0;         // barrier-like instances seen
  uint64_t early_departures = 0;  // instances with a departure before their latest arrival
  uint64_t worst_early = 0;       // the largest such gap (trace time units)
  std::string first_early;        // the first such instance, in words
  uint64_t events = 0;            // events checked for each thread's own order
  uint64_t out_of_order = 0;      // events timed before something their thread did earlier
  uint64_t worst_back = 0;        // the largest such step back
  std::string first_out_of_order;

  bool ok() const { return early_departures == 0 && out_of_order == 0; }
  // "0 of 128 barrier instances with an early departure, 0 of 34824 events out of order"
  std::string summary() const;
};

// Checks a finalized trace (events in sequence order, barrier phases numbered).
TimeOrderReport check_time_order(const Trace& trace);

// Adds b's counts to a (for a run of several launches); keeps a's first examples if it has any.
void merge(TimeOrderReport& a, const TimeOrderReport& b);

}  // namespace coop
