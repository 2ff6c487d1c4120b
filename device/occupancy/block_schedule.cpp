#include "device/occupancy/block_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace coop {

double BlockSchedule::makespan() const {
  double end = 0;
  for (const ScheduledBlock& b : blocks) end = std::max(end, b.end);
  return end;
}

BlockSchedule model_block_schedule(uint32_t sm_count, int blocks_per_sm,
                                   std::span<const double> durations) {
  BlockSchedule s;
  s.sm_count = sm_count;
  s.blocks_per_sm = blocks_per_sm;
  s.modelled = true;
  s.unit = "work units";
  if (sm_count == 0 || blocks_per_sm <= 0) return s;
  // free_at[sm][slot]: when that slot of the SM is free again.
  std::vector<std::vector<double>> free_at(sm_count, std::vector<double>(size_t(blocks_per_sm), 0));
  for (size_t b = 0; b < durations.size(); ++b) {
    uint32_t best_sm = 0;
    double best_time = std::numeric_limits<double>::infinity();
    long best_free = -1;
    for (uint32_t sm = 0; sm < sm_count; ++sm) {
      const std::vector<double>& slots = free_at[sm];
      const double t = *std::min_element(slots.begin(), slots.end());
      if (t > best_time) continue;
      const long free_then =
          std::count_if(slots.begin(), slots.end(), [t](double x) { return x <= t; });
      if (t < best_time || free_then > best_free) {
        best_sm = sm;
        best_time = t;
        best_free = free_then;
      }
    }
    std::vector<double>& slots = free_at[best_sm];
    auto slot = std::min_element(slots.begin(), slots.end());
    ScheduledBlock placed;
    placed.block = uint32_t(b);
    placed.sm = best_sm;
    placed.start = best_time;
    placed.end = best_time + durations[b];
    *slot = placed.end;
    s.blocks.push_back(placed);
  }
  return s;
}

std::vector<int> peak_resident_per_sm(const BlockSchedule& s) {
  std::vector<int> peak(s.sm_count, 0);
  std::map<uint32_t, std::vector<std::pair<double, int>>> edges;  // sm -> (time, +1/-1)
  for (const ScheduledBlock& b : s.blocks) {
    edges[b.sm].emplace_back(b.start, +1);
    edges[b.sm].emplace_back(b.end, -1);
  }
  for (auto& [sm, e] : edges) {
    // At equal times departures come first (-1 sorts before +1).
    std::sort(e.begin(), e.end());
    int now = 0, most = 0;
    for (const auto& [t, d] : e) most = std::max(most, now += d);
    if (sm >= peak.size()) peak.resize(sm + 1, 0);
    peak[sm] = most;
  }
  return peak;
}

std::vector<uint32_t> slots_of_blocks(const BlockSchedule& s) {
  std::vector<uint32_t> slot(s.blocks.size(), 0);
  std::map<uint32_t, std::vector<size_t>> by_sm;
  for (size_t i = 0; i < s.blocks.size(); ++i) by_sm[s.blocks[i].sm].push_back(i);
  for (auto& [sm, blocks] : by_sm) {
    std::sort(blocks.begin(), blocks.end(),
              [&](size_t a, size_t b) { return s.blocks[a].start < s.blocks[b].start; });
    std::vector<double> free_at;  // per slot: when its current block ends
    for (size_t i : blocks) {
      const ScheduledBlock& b = s.blocks[i];
      auto it =
          std::find_if(free_at.begin(), free_at.end(), [&](double t) { return t <= b.start; });
      if (it == free_at.end()) it = free_at.insert(free_at.end(), 0.0);
      *it = b.end;
      slot[i] = uint32_t(it - free_at.begin());
    }
  }
  return slot;
}

BlockSchedule schedule_from_trace(const Trace& trace) {
  BlockSchedule s;
  s.modelled = block_records_modelled(trace.header);
  s.unit = s.modelled ? "work units" : (trace.header.backend == Backend::Gpu ? "ns" : "steps");
  if (s.modelled) s.ticks_per_unit = kScheduleTicksPerUnit;
  // Times stay integers until they are made relative: %globaltimer counts nanoseconds since
  // 1970, past a double's 53 bits, and as doubles neighbouring blocks' ends and starts would
  // round across each other (a block seen starting before its predecessor on the SM ended).
  struct Records {
    uint32_t sm = 0;
    uint64_t start = 0, end = 0;
    int seen = 0;  // bit 1: start, bit 2: end
  };
  std::map<uint32_t, Records> by_block;
  for (const Event& e : trace.events) {
    if (e.group_kind != GroupKind::Block) continue;
    if (e.kind != EventKind::ThreadBegin && e.kind != EventKind::ThreadEnd) continue;
    Records& r = by_block[e.group_id];
    r.sm = e.extra;
    (e.kind == EventKind::ThreadBegin ? r.start : r.end) = e.time;
    r.seen |= e.kind == EventKind::ThreadBegin ? 1 : 2;
  }
  uint64_t origin = UINT64_MAX;
  for (const auto& [id, r] : by_block)
    if (r.seen == 3) origin = std::min(origin, r.start);
  if (origin == UINT64_MAX) return s;
  s.origin = origin;
  for (const auto& [id, r] : by_block) {
    if (r.seen != 3) continue;
    s.blocks.push_back({id, r.sm, s.from_trace_time(r.start), s.from_trace_time(r.end)});
    s.sm_count = std::max(s.sm_count, r.sm + 1);
  }
  return s;
}

void apply_schedule_to_trace(const BlockSchedule& s, Trace& trace) {
  std::vector<const ScheduledBlock*> by_block;
  for (const ScheduledBlock& b : s.blocks) {
    if (b.block >= by_block.size()) by_block.resize(b.block + 1, nullptr);
    by_block[b.block] = &b;
  }
  // Every event of a block is moved, in order, into the block's place in the schedule: its
  // emulator steps are stretched linearly over [start, end] of the modelled block, so that
  // playback starts and finishes blocks in the schedule's waves (and a block's own order, its
  // barriers' arrivals before departures, is kept).
  const uint64_t bt = std::max<uint64_t>(1, trace.header.launch.block.count());
  struct Span {
    uint64_t first = UINT64_MAX, last = 0;
  };
  std::vector<Span> span(by_block.size());
  for (const Event& e : trace.events) {
    const uint64_t block = e.thread / bt;
    if (block >= span.size()) continue;
    span[block].first = std::min(span[block].first, e.time);
    span[block].last = std::max(span[block].last, records_departure(e.kind) ? e.b : e.time);
  }
  auto moved = [&](uint64_t block, uint64_t t) {
    const ScheduledBlock& b = *by_block[block];
    const Span& sp = span[block];
    // Step k of a block's n + 1 steps lands in the middle of the k-th of n + 1 equal slices of
    // its place: after its start record, before its end record, and blocks that run at once in
    // the model interleave in playback instead of one finishing its first steps before the
    // next has begun.
    const double from =
        (double(t - sp.first) + 0.5) / double(sp.last - sp.first + 1);
    return uint64_t(std::llround((b.start + (b.end - b.start) * from) * kScheduleTicksPerUnit));
  };
  for (Event& e : trace.events) {
    const uint64_t block = e.thread / bt;
    if (block >= by_block.size() || by_block[block] == nullptr) continue;
    const ScheduledBlock& b = *by_block[block];
    if (e.group_kind == GroupKind::Block &&
        (e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd)) {
      e.extra = b.sm;
      e.time = uint64_t(
          std::llround((e.kind == EventKind::ThreadBegin ? b.start : b.end) * kScheduleTicksPerUnit));
      continue;
    }
    if (records_departure(e.kind)) e.b = moved(block, e.b);
    e.time = moved(block, e.time);
  }
  trace.header.schedule = "modelled: blocks placed by the occupancy model (" +
                          std::to_string(s.blocks_per_sm) + " per SM on " +
                          std::to_string(s.sm_count) + " SMs); times are " + s.unit +
                          ", not measurements";
  trace.header.clock = "modelled schedule: " + std::to_string(kScheduleTicksPerUnit) +
                       " ticks per work unit, each block's emulator steps spread over its place "
                       "in the schedule";
}

}  // namespace coop
