#include "device/occupancy/block_schedule.hpp"

#include <algorithm>
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
  std::map<uint32_t, ScheduledBlock> by_block;
  std::map<uint32_t, int> seen;  // bit 1: start, bit 2: end
  for (const Event& e : trace.events) {
    if (e.group_kind != GroupKind::Block) continue;
    if (e.kind != EventKind::ThreadBegin && e.kind != EventKind::ThreadEnd) continue;
    ScheduledBlock& b = by_block[e.group_id];
    b.block = e.group_id;
    b.sm = e.extra;
    if (e.kind == EventKind::ThreadBegin) {
      b.start = double(e.time);
      seen[e.group_id] |= 1;
    } else {
      b.end = double(e.time);
      seen[e.group_id] |= 2;
    }
  }
  double origin = std::numeric_limits<double>::infinity();
  for (const auto& [id, b] : by_block)
    if (seen[id] == 3) origin = std::min(origin, b.start);
  if (origin != std::numeric_limits<double>::infinity()) s.origin = origin;
  for (auto& [id, b] : by_block) {
    if (seen[id] != 3) continue;
    b.start -= origin;
    b.end -= origin;
    s.sm_count = std::max(s.sm_count, b.sm + 1);
    s.blocks.push_back(b);
  }
  return s;
}

void apply_schedule_to_trace(const BlockSchedule& s, Trace& trace) {
  std::vector<const ScheduledBlock*> by_block;
  for (const ScheduledBlock& b : s.blocks) {
    if (b.block >= by_block.size()) by_block.resize(b.block + 1, nullptr);
    by_block[b.block] = &b;
  }
  for (Event& e : trace.events) {
    if (e.group_kind != GroupKind::Block || e.group_id >= by_block.size()) continue;
    const ScheduledBlock* b = by_block[e.group_id];
    if (b == nullptr) continue;
    if (e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd) {
      e.extra = b->sm;
      e.time = uint64_t(e.kind == EventKind::ThreadBegin ? b->start : b->end);
    }
  }
  trace.header.schedule = "modelled: blocks placed by the occupancy model (" +
                          std::to_string(s.blocks_per_sm) + " per SM on " +
                          std::to_string(s.sm_count) + " SMs); times are " + s.unit +
                          ", not measurements";
}

}  // namespace coop
