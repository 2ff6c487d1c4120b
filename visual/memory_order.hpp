// What happened at each memory address: the order in which atomics landed (recovered from the
// old values they returned), and the updates lost to unprotected read-modify-write races
// (traced loads and stores). Built once per trace; the atomic order and memory views read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "visual/timeline_model.hpp"

namespace coop::visual {

struct AtomicLanding {
  size_t position = 0;  // playback position of the event
  uint32_t thread = 0;
  Op op = Op::None;
  uint64_t operand = 0;  // Event::a
  uint64_t old = 0;      // Event::b: the value it found, which says where it landed
  uint16_t line = 0;
  uint16_t flags = 0;    // Event::flags: its scope and memory order
};

// A traced load or store in a read-modify-write race.
struct RaceAccess {
  size_t position = 0;
  uint32_t thread = 0;
  bool store = false;
  uint64_t value = 0;      // read (load) or written (store)
  int64_t overwrote = -1;  // store: index in `accesses` of a store it silently undid, or -1
};

struct AddressHistory {
  uint64_t address = 0;
  uint16_t flags = 0;  // kFlagShared: address is a shared-memory offset of `block`
  uint32_t block = 0;  // for shared memory
  ValueType type = ValueType::None;
  std::vector<AtomicLanding> atomics;  // in landing order
  bool order_exact = false;          // true: the old values chain; false: recorder order (GPU ties)
  std::vector<RaceAccess> accesses;  // loads and stores in playback order
  uint32_t lost_updates = 0;         // stores undone by another thread's later store
};

// Every address with atomics or traced loads/stores, by address (shared memory per block).
std::vector<AddressHistory> build_memory_histories(const TimelineModel& model);

// How many of h's atomics count as landed at playback `cursor`: the longest run from the first to
// land whose events the cursor has passed. A GPU stamps an atomic before issuing it, so stamps
// need not follow the landing order; counted this way no ticket shows as landed before one that
// landed earlier.
size_t landed_in_order(const AddressHistory& h, size_t cursor);

// The value an atomic wrote: old combined with operand by its op (as bits of `type`); returns
// false for ops whose result the event does not determine (CAS without the compare value).
bool atomic_result(Op op, ValueType type, uint64_t old, uint64_t operand, uint64_t& result);

}  // namespace coop::visual
