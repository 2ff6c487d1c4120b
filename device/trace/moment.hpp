// A moment in a launch, named by what happens then rather than by an event index: "the first
// collective in warp 0", "when every thread of block 1 has arrived at phase 2 of a barrier",
// "the last atomic". Lesson steps declare their moment this way (lesson.md), so a step keeps
// showing what its text says when the trace changes length; visual/moment.hpp finds it.
//
// Grammar (words separated by spaces):
//   moment  := "end" | which kind filter*
//   which   := "first" | "last" | "arrived" | ORDINAL      (ORDINAL: 2nd, 3rd, 4th, ...)
//   kind    := an event kind as traces name it (group_create, barrier, collective, atomic, ...)
//   filter  := "in" "block" N | "in" "warp" N | "of" "thread" N | "phase" N | "group" GROUP
//            | "anywhere"                                   (not only on the step's lines)
// "arrived" is for barrier and barrier_wait: the moment the last member of the barrier instance
// (group and phase) of the first matching event arrives, so every member is shown waiting.
// "first", "last" and ordinals count instants (distinct times), not events: the first collective
// of a warp is one instant in which all 32 lanes take part.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "device/launch/result.hpp"
#include "device/trace/event.hpp"

namespace coop {

struct MomentSpec {
  enum class Which : uint8_t { First, Nth, Last, Arrived, End };
  Which which = Which::First;
  uint32_t nth = 1;  // Which::Nth: 2 for "2nd"
  EventKind kind = EventKind::None;
  int64_t block = -1;   // linear block index, -1: any
  int64_t warp = -1;    // warp within its block, -1: any
  int64_t thread = -1;  // grid-wide thread id, -1: any
  int64_t phase = -1;   // barrier phase (Event::extra), -1: any
  GroupKind group = GroupKind::None;  // None: any group kind
  bool anywhere = false;              // match on every line, not only the step's

  // Whether `e` is one of the events this moment is about (its kind and filters), given the
  // block size and the highlighted lines (empty or `anywhere`: every line matches).
  bool matches(const Event& e, uint32_t block_threads, std::span<const int> lines) const;
};

// Parses the grammar above; the error names the word that is wrong and what was expected.
Result<MomentSpec> parse_moment(std::string_view text);
// The moment written back in the same grammar.
std::string to_string(const MomentSpec& moment);

}  // namespace coop
