// What a lesson program claims about the values its trace holds, beside trace_claims.hpp's
// counts of events: what the program knows (what its atomics returned, the final value a race
// left) and coopviz checks against what was recorded (lessons/README.md, "[trace] lines").
//   SPEC ... on BUFFER                      an access or atomic inside the buffer the program's
//                                           variable names (the trace header's buffer)
//   SPEC ... finding V                      an event that found V, an atomic's old value or a
//                                           load's, in the event's own type
//   N SPEC whose old values sum to S        a [trace] item: N events whose found values add up
//                                           to S
//   a chain of reads and writes from 0 to F a [trace] item on one launch: its traced loads and
//                                           stores, one of each per racing thread on one int,
//                                           explain the final value F (race_chain.hpp); got says
//                                           how many shares the chain kept
//   WHAT in the race to F                   what a [count] counts on one launch, WHAT one of
//                                           "updates lost", "threads kept", "threads overwritten
//                                           unread", "threads read only by the lost" (or
//                                           "blocks ...": the racers are the first threads of
//                                           blocks, named by block)
// read_spec (trace_claims.hpp) reads the two filters; settle_item and the [count] reader ask here
// for the rest.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "device/trace/trace.hpp"
#include "lessons/trace_claims.hpp"

namespace coop::lessons {

// The value an event found (an atomic's old value, a load's result), as a double; none for an
// event that finds none.
std::optional<double> found_value(const Event& e);

// Whether `e` accesses the buffer named `buffer` in `t`'s header.
bool in_buffer(const Event& e, const Trace& t, std::string_view buffer);

// A value as a claim writes it ("16777216", "0.5"): all of `text` one number; none otherwise.
std::optional<double> read_value(std::string_view text);

// "N SPEC whose old values sum to S" or "a chain of reads and writes from 0 to F" settled on
// `counted`; nullopt when `item` is neither.
std::optional<SettledItem> settle_value_item(std::string_view item, const Counted& counted);

// "WHAT in the race to F" counted on `counted`'s one launch: nullopt when `what` is no such
// count; else the value, or why there is none.
std::optional<std::string> count_in_race(std::string_view what, const Counted& counted);

}  // namespace coop::lessons
