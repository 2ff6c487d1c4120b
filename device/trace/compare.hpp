// Compares two traces of the same launch on what must not depend on the backend or the schedule:
// for every thread, the sequence of events it recorded, with kinds, lines, group membership,
// ranks, sizes, meta ranks, barrier phases and collective inputs and outputs. Fields the hardware
// may legally choose (timestamps, sequence numbers, addresses, atomics' old values, the thread
// invoke_one picked, the SM a block ran on) are left out, and so are events only one backend can
// record: the loads and stores the emulator sees without traced(...) (kFlagInstrumented).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "device/trace/trace.hpp"

namespace coop {

struct TraceDiff {
  uint64_t threads_compared = 0;
  uint64_t events_compared = 0;
  uint64_t mismatches = 0;
  uint64_t one_backend_only = 0;  // events left out: only one of the backends records their kind
  std::vector<std::string> examples;  // the first few differences, in words
  bool equal() const { return mismatches == 0; }
};

TraceDiff compare_deterministic(const Trace& a, const Trace& b, size_t max_examples = 8);

// A 64-bit digest of what compare_deterministic compares (the kernel's name, the launch's shape
// and every thread's events), with each event's line given by its text (`line_text`), so that a
// trace of the same kernels from another file, where the lines are numbered otherwise, has the
// same digest.
uint64_t deterministic_digest(const Trace& t, const std::function<std::string(uint32_t)>& line_text);

}  // namespace coop
