#include "visual/timeline_model.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace coop::visual {

BarrierInstance barrier_instance(const Event& e, uint32_t block_threads) {
  const bool launch_wide = e.group_kind == GroupKind::Grid || e.group_kind == GroupKind::Cluster;
  const bool warp_level = e.group_kind == GroupKind::Coalesced || e.group_kind == GroupKind::Labeled ||
                          e.group_kind == GroupKind::Binary || e.group_kind == GroupKind::Stride ||
                          e.group_kind == GroupKind::Warp;
  BarrierInstance b;
  b.scope = launch_wide || block_threads == 0 ? 0 : e.thread / block_threads;
  b.warp = warp_level && block_threads ? e.thread % block_threads / 32 : 0;
  b.group_id = e.group_id;
  b.group_size = e.group_size;
  b.phase = e.extra;
  b.kind = e.group_kind;
  return b;
}

TimelineModel::TimelineModel(Trace trace) : trace_(std::move(trace)) {
  const LaunchConfig& l = trace_.header.launch;
  block_threads_ = uint32_t(l.block.count());
  block_count_ = uint32_t(l.grid.count());
  thread_count_ = uint32_t(l.total_threads());
  const EventVector& ev = trace_.events;

  order_.resize(ev.size());
  std::iota(order_.begin(), order_.end(), 0u);
  std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(ev[a].time, ev[a].sequence) < std::tie(ev[b].time, ev[b].sequence);
  });

  // Group positions by thread (counting sort keeps each thread's positions in playback order).
  thread_offsets_.assign(size_t(thread_count_) + 1, 0);
  for (const Event& e : ev)
    if (e.thread < thread_count_) ++thread_offsets_[e.thread + 1];
  std::partial_sum(thread_offsets_.begin(), thread_offsets_.end(), thread_offsets_.begin());
  thread_positions_.resize(thread_offsets_.back());
  std::vector<uint32_t> fill(thread_offsets_.begin(), thread_offsets_.end() - 1);
  for (uint32_t pos = 0; pos < order_.size(); ++pos) {
    const Event& e = ev[order_[pos]];
    if (e.thread < thread_count_) thread_positions_[fill[e.thread]++] = pos;
  }

  static_assert(size_t(GroupKind::Count) <= 16, "joins_ holds one bit per group kind");
  joins_.assign(thread_count_, 0);
  for (const Event& e : ev)
    if (e.kind == EventKind::GroupCreate && e.thread < thread_count_ && !(e.flags & kFlagStuck))
      joins_[e.thread] |= uint16_t(1u << unsigned(e.group_kind));

  // A phase of a group ends where the last member's barrier event sits in playback order.
  std::map<BarrierInstance, size_t> last;
  for (uint32_t pos = 0; pos < order_.size(); ++pos) {
    const Event& e = ev[order_[pos]];
    has_stuck_ |= (e.flags & kFlagStuck) != 0;
    has_fault_ |= e.kind == EventKind::Fault;
    if (e.kind != EventKind::Barrier && e.kind != EventKind::BarrierWait) continue;
    if (e.flags & kFlagStuck) continue;  // never completes: no phase ends there
    last[barrier_instance(e, block_threads_)] = pos;
  }
  for (const auto& [key, pos] : last) phase_ends_.push_back(pos);
  std::sort(phase_ends_.begin(), phase_ends_.end());
  phase_ends_.erase(std::unique(phase_ends_.begin(), phase_ends_.end()), phase_ends_.end());
}

std::span<const uint32_t> TimelineModel::thread_positions(uint32_t thread) const {
  if (thread >= thread_count_) return {};
  return {thread_positions_.data() + thread_offsets_[thread],
          thread_offsets_[thread + 1] - thread_offsets_[thread]};
}

int64_t TimelineModel::thread_position_at(uint32_t thread, size_t position) const {
  const std::span<const uint32_t> p = thread_positions(thread);
  auto it = std::upper_bound(p.begin(), p.end(), uint32_t(std::min<size_t>(position, UINT32_MAX)));
  if (it == p.begin()) return -1;
  return *(it - 1);
}

size_t TimelineModel::find_next(size_t from, EventKind kind, std::span<const int> lines) const {
  for (size_t pos = from; pos < order_.size(); ++pos) {
    const Event& e = at(pos);
    if (e.kind != kind) continue;
    if (lines.empty() || std::find(lines.begin(), lines.end(), int(e.line)) != lines.end())
      return pos;
  }
  return order_.size();
}

}  // namespace coop::visual
