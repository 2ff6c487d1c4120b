// What a lesson program's [trace] and [count] lines claim about its own trace, counted
// (lessons/program_lesson.hpp reads the lines; lessons/README.md, "[trace] lines", is the
// grammar for the program's author).
//
// SPEC, the events counted: "KIND[ of GROUP[ SIZE|SIZE...]][ at SCOPE scope][ phase P][ at rank R][ at line L]
// [ stuck][ open][ on BUFFER][ finding V]", the filters in any order after the group: "barrier of
// tile 4|32", "barrier of block 64 phase 2 at line 31", "group_create of coalesced at rank 0",
// "barrier at line 30 stuck" (stuck: the thread never left that call, a deadlock or a fault the
// emulator stopped), "barrier_wait open" (open: left at once, its departure not after its start:
// the phase was complete when the thread came), "atomic on float_count finding 16777216" (the
// values the trace holds: value_claims.hpp).
//
// An item of a [trace] claim, each settled on its own:
//   N SPEC                                  N such events
//   as many SPEC as SPEC                    two counts equal (N unknown to the program)
//   N threads with SPEC then SPEC ...       threads whose own events hold that subsequence
//   N barrier phases kept                   N barrier-like phases (device/trace/time_order.hpp),
//                                           none left by anyone before its last arrival
//   N race[s][ of ACCESS line L and ACCESS line M]
//                                           races the detector finds (between those lines,
//                                           either order; ACCESS is read, write or atomic);
//                                           skipped where the launches recorded no load and
//                                           store of their own (a GPU) or dropped events
//   N SPEC whose old values sum to S, a chain of reads and writes from 0 to F
//                                           the values the trace holds (value_claims.hpp)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "device/trace/trace.hpp"

namespace coop::lessons {

struct EventSpec {
  EventKind kind = EventKind::Barrier;
  std::optional<GroupKind> group;
  std::vector<uint64_t> sizes;  // any of these group sizes; none: every size
  std::optional<uint16_t> scope;  // an atomic_ref's scope flag; 0: device scope, which has none
  std::optional<uint64_t> rank, phase, line;
  bool stuck = false;  // only events the thread never left (kFlagStuck)
  bool open = false;   // only waits that did not wait (departure b not after time)
  std::string buffer;  // only accesses inside the trace header's buffer of this name; "": any
  std::optional<double> found;  // only events that found this value (value_claims.hpp)
  bool matches(const Event& e, const Trace& t) const;
};
std::optional<EventSpec> read_spec(std::string_view s);

// The launches a claim counts: "KERNEL", all its launches, or "KERNEL launch K", its K-th (from 1).
struct Counted {
  std::vector<const Trace*> launches;
  std::string missing;  // "no launch of KERNEL [number K]" when there is none
  size_t count(const EventSpec& spec) const;
};
Counted launches_named(std::string_view named, const std::vector<Trace>& launches);

// One item of a claim, settled: what was found ("6 copy_issue"), whether it holds, or that the
// launches cannot settle it (skipped, with why), or that the item is no claim at all (error).
struct SettledItem {
  std::string got;
  bool holds = false;
  bool skipped = false;
  bool error = false;
};
SettledItem settle_item(std::string_view item, const Counted& counted);
// An item that is no claim of the form `what`: "'ITEM' is no WHAT", an error.
SettledItem not_a_claim(std::string_view item, const char* what);

}  // namespace coop::lessons
