#include "visual/barrier_timeline.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace coop::visual {
namespace {

struct Key {
  uint32_t lane, group_id, group_size, phase;
  GroupKind kind;
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  size_t operator()(const Key& k) const {
    return (size_t(k.lane) * 0x9E3779B97F4A7C15ull) ^ (size_t(k.group_id) << 20) ^
           (size_t(k.phase) << 1) ^ size_t(k.kind) ^ (size_t(k.group_size) << 40);
  }
};

}  // namespace

BarrierTimeline::BarrierTimeline(const TimelineModel& model, BarrierLanes lanes) : lanes_(lanes) {
  const uint32_t block_threads = std::max(1u, model.block_threads());
  const uint32_t warps = model.warps_per_block();
  const uint32_t lane_count =
      lanes == BarrierLanes::Blocks ? model.block_count() : model.block_count() * warps;
  if (lane_count == 0) {
    offsets_ = {0};
    return;
  }
  std::unordered_map<Key, size_t, KeyHash> index;
  std::vector<uint32_t> lane_of_span;
  bool any = false;
  for (size_t pos = 0; pos < model.size(); ++pos) {
    const Event& e = model.at(pos);
    const bool arrive = e.kind == EventKind::Barrier || e.kind == EventKind::BarrierArrive;
    if (!arrive && e.kind != EventKind::BarrierWait) continue;
    if (e.thread >= model.thread_count()) continue;
    const uint32_t block = e.thread / block_threads;
    const uint32_t lane =
        lanes == BarrierLanes::Blocks ? block : block * warps + (e.thread % block_threads) / 32;
    const Key key{lane, e.group_id, e.group_size, e.extra, e.group_kind};
    auto [it, fresh] = index.try_emplace(key, spans_.size());
    if (fresh) {
      BarrierSpan s;
      s.first_arrive = s.last_arrive = e.time;
      s.phase = e.extra;
      s.group_id = e.group_id;
      s.group_kind = e.group_kind;
      s.line = e.line;
      spans_.push_back(s);
      lane_of_span.push_back(lane);
    }
    BarrierSpan& s = spans_[it->second];
    if (arrive) {
      s.first_arrive = std::min(s.first_arrive, e.time);
      s.last_arrive = std::max(s.last_arrive, e.time);
      s.last_position = pos;
      ++s.threads;
    }
    // sync() carries the departure in b; a split barrier's departure is its wait's b.
    if (e.kind != EventKind::BarrierArrive) s.depart = std::max(s.depart, e.b);
    if (e.kind != EventKind::Barrier) s.split = true;
    s.stuck |= (e.flags & kFlagStuck) != 0;
    begin_ = any ? std::min(begin_, e.time) : e.time;
    end_ = std::max({end_, e.time, s.depart});
    any = true;
  }
  for (BarrierSpan& s : spans_) s.depart = s.stuck ? end_ : std::max(s.depart, s.last_arrive);
  // Group spans by lane (counting sort), each lane's in arrival order.
  offsets_.assign(size_t(lane_count) + 1, 0);
  for (uint32_t lane : lane_of_span) ++offsets_[std::min(lane, lane_count - 1) + 1];
  for (size_t i = 1; i < offsets_.size(); ++i) offsets_[i] += offsets_[i - 1];
  std::vector<BarrierSpan> sorted(spans_.size());
  std::vector<size_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (size_t i = 0; i < spans_.size(); ++i)
    sorted[fill[std::min(lane_of_span[i], lane_count - 1)]++] = spans_[i];
  spans_ = std::move(sorted);
  max_depart_.resize(spans_.size());
  for (uint32_t lane = 0; lane < lane_count; ++lane) {
    auto first = spans_.begin() + ptrdiff_t(offsets_[lane]);
    auto last = spans_.begin() + ptrdiff_t(offsets_[lane + 1]);
    std::sort(first, last, [](const BarrierSpan& a, const BarrierSpan& b) {
      return std::tie(a.first_arrive, a.phase) < std::tie(b.first_arrive, b.phase);
    });
    uint64_t running = 0;
    for (size_t i = offsets_[lane]; i < offsets_[lane + 1]; ++i)
      max_depart_[i] = running = std::max(running, spans_[i].depart);
  }
}

std::span<const BarrierSpan> BarrierTimeline::lane(uint32_t index) const {
  if (index + 1 >= offsets_.size()) return {};
  return {spans_.data() + offsets_[index], offsets_[index + 1] - offsets_[index]};
}

std::span<const BarrierSpan> BarrierTimeline::lane_between(uint32_t lane, uint64_t t0,
                                                           uint64_t t1) const {
  if (lane + 1 >= offsets_.size()) return {};
  const size_t b = offsets_[lane], e = offsets_[lane + 1];
  // The first span that may still be open at t0: the running maximum of departures is sorted.
  const size_t first = size_t(
      std::lower_bound(max_depart_.begin() + ptrdiff_t(b), max_depart_.begin() + ptrdiff_t(e), t0) -
      max_depart_.begin());
  auto last_it =
      std::upper_bound(spans_.begin() + ptrdiff_t(first), spans_.begin() + ptrdiff_t(e), t1,
                       [](uint64_t t, const BarrierSpan& s) { return t < s.first_arrive; });
  const size_t last = size_t(last_it - spans_.begin());
  return {spans_.data() + first, last - first};
}

}  // namespace coop::visual
