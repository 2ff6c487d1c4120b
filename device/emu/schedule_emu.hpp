// Where and when a block ran, on the emulator: the same calls as device/gpu/schedule.cuh. The SM
// is the one the emulator placed the block on and the time is its logical clock (steps, not
// nanoseconds), so a timeline drawn from them shows the emulator's order, not real timing; the
// block-scheduling lesson replaces them with the occupancy model's schedule and says so.
#pragma once

#include "device/emu/emu_api.hpp"
#include "device/trace/event.hpp"

namespace coop {

inline unsigned this_sm_id() {
  return emu::this_thread().sm;
}

inline unsigned long long global_timer_ns() {
  return emu::now();
}

namespace detail {

inline void record_block_event(EventKind kind, int line) {
  const emu::ThreadInfo& t = emu::this_thread();
  if (t.thread_rank != 0) return;  // one record per block: thread 0 speaks for it
  Event e{};
  e.kind = kind;
  e.group_kind = GroupKind::Block;
  e.group_id = t.block_rank;
  e.group_size = t.block_threads;
  e.extra = t.sm;
  e.line = uint16_t(line);
  e.time = emu::now();
  emu::record(e);
}

}  // namespace detail

inline void record_block_start(int line = __builtin_LINE()) {
  detail::record_block_event(EventKind::ThreadBegin, line);
}

inline void record_block_finish(int line = __builtin_LINE()) {
  detail::record_block_event(EventKind::ThreadEnd, line);
}

}  // namespace coop
