// Count checks: where an exercise's point is doing fewer of something (one atomicAdd per warp,
// one global atomic per bin and block) or doing it at a certain place (work between a split
// barrier's arrive and wait), the outputs alone cannot tell a right answer from a wrong one. An
// exercise's counts.json lists rules; the checker counts the events of every hidden case's
// launches in the trace it records under the lockstep schedule (lessons/README.md, "Count
// checks").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "device/launch/result.hpp"
#include "device/trace/trace.hpp"

namespace coop::app {

struct CountRule {
  std::string kernel;  // the launches of this kernel are counted
  std::vector<EventKind> kinds;  // events of any of these kinds ("event": one name or a list)
  // Only these ops ("op": "atomic_add" or a list), or with `ops_excluded` every op but these
  // ("not_op": the shuffles, for "no collective but shuffles").
  std::vector<Op> ops;
  bool ops_excluded = false;
  std::optional<bool> shared;     // "memory": "shared" or "global" accesses only
  std::optional<uint32_t> extra;  // only events with this extra (wait_prior's N)
  // Only the events a thread makes after one of kind `after` and before its next of kind
  // `before` ("between": "barrier_arrive..barrier_wait"): work placed where it overlaps a wait.
  std::optional<EventKind> after, before;
  // "while": "copies_in_flight >= N": only the events a thread makes while at least N of its
  // async copies are issued and not yet waited for (a copy_issue adds one; a wait that lets K
  // stay in flight, wait_prior<K>, leaves at most K): using a tile while the next is copied,
  // whatever order the code states it in.
  std::optional<uint32_t> in_flight_at_least;
  bool distinct_addresses = false;  // "distinct": "address": count the addresses, not events
  enum class Per { Thread, Warp, Block, Launch } per = Per::Warp;
  long at_most = -1, at_least = -1;  // -1: no bound
  std::string says;                  // what the rule asks of the student, in the spec's words
};

// The rules in `file`; none when it does not exist. A malformed file is an error naming it, the
// rule and what is wrong.
Result<std::vector<CountRule>> read_count_rules(const std::filesystem::path& file);

// Whether counting needs every load and store recorded (ExecOptions::record_memory).
bool counts_need_memory(const std::vector<CountRule>& rules);

// The first rule `launch` breaks, in words ("one atomicAdd per warp: warp 1 of block 0 made 32
// atomic events, at most 1"); empty when it breaks none.
std::string broken_count(const std::vector<CountRule>& rules, const Trace& launch);

}  // namespace coop::app
