// Which SM each block of a launch ran on, and when: measured on a GPU (each block records %smid
// and %globaltimer), or modelled from the occupancy model when there is no GPU to measure.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "device/trace/trace.hpp"

namespace coop {

struct ScheduledBlock {
  uint32_t block = 0;  // linear block index
  uint32_t sm = 0;
  double start = 0;  // in the schedule's unit, from the earliest start
  double end = 0;
};

struct BlockSchedule {
  std::vector<ScheduledBlock> blocks;  // in block order
  uint32_t sm_count = 0;               // SMs the schedule spans (highest SM id + 1 if measured)
  int blocks_per_sm = 0;               // the occupancy model's limit (0: unknown)
  bool modelled = false;               // true: computed, not measured
  std::string unit = "ns";             // "ns" when measured; "work units" when modelled
  uint64_t origin = 0;        // schedule_from_trace: the first start, in trace ticks
  double ticks_per_unit = 1;  // schedule_from_trace: trace ticks per unit of this schedule
  // A trace time in this schedule's unit, counted from its first start (exact in integers
  // first: a %globaltimer stamp does not fit a double).
  double from_trace_time(uint64_t t) const {
    return (t >= origin ? double(t - origin) : -double(origin - t)) / ticks_per_unit;
  }

  double makespan() const;
};

// The block scheduler as a model: blocks are handed out in index order, each to the SM where a
// slot frees first (ties: the SM with the most free slots, then the lowest id), so the first wave
// spreads across all SMs and later blocks take the place of whichever block finishes first.
// durations[b] is how long block b runs once placed.
BlockSchedule model_block_schedule(uint32_t sm_count, int blocks_per_sm,
                                   std::span<const double> durations);

// Most blocks resident at once on each SM (a block leaving at t and one arriving at t do not
// overlap).
std::vector<int> peak_resident_per_sm(const BlockSchedule& schedule);

// For drawing: the slot (row within its SM's lane) of each block in schedule.blocks, so that
// blocks resident at the same time on one SM sit in different rows. Slots are reused as soon as
// their block ends; the number of rows an SM needs is its peak_resident_per_sm.
std::vector<uint32_t> slots_of_blocks(const BlockSchedule& schedule);

// The blocks' ThreadBegin/ThreadEnd records (record_block_start/finish) of a trace; times are
// made relative to the earliest start. Blocks without both records are left out.
BlockSchedule schedule_from_trace(const Trace& trace);

// Rewrites a trace's block records with a modelled schedule (SM ids and times), so a view of
// the trace shows the model; the header's `schedule` field says that it is modelled.
void apply_schedule_to_trace(const BlockSchedule& schedule, Trace& trace);

// Trace time ticks per modelled work unit after apply_schedule_to_trace.
// Fine enough that a block's emulator steps (tens of thousands for one unit of work) keep distinct
// times.
inline constexpr int kScheduleTicksPerUnit = 1'000'000;

}  // namespace coop
