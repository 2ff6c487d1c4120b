#include "visual/thread_snapshot.hpp"

#include <algorithm>

namespace coop::visual {
namespace {

bool blocks_thread(EventKind kind) {
  return kind == EventKind::Barrier || kind == EventKind::BarrierWait ||
         kind == EventKind::CopyWait;
}

}  // namespace

int ThreadSnapshot::kind_slot(GroupKind kind) const {
  const size_t k = size_t(kind);
  return k < slot_of_kind_.size() ? slot_of_kind_[k] : -1;
}

ThreadActivity ThreadSnapshot::activity(uint32_t thread) const {
  const State& s = state_[thread];
  if (s.position < 0) return ThreadActivity::NotStarted;
  if (s.kind == EventKind::ThreadEnd) return ThreadActivity::Done;
  if (s.stuck) return ThreadActivity::Stuck;
  // Barrier events carry their departure time: until playback reaches it, the thread is still
  // held at the barrier.
  if (blocks_thread(s.kind) && s.depart > now_) return ThreadActivity::Waiting;
  return ThreadActivity::Running;
}

bool ThreadSnapshot::played_last_event(uint32_t thread) const {
  if (model_ == nullptr || thread >= state_.size()) return false;
  const std::span<const uint32_t> mine = model_->thread_positions(thread);
  return !mine.empty() && state_[thread].position == int64_t(mine.back());
}

GroupMembership ThreadSnapshot::membership(uint32_t thread, GroupKind kind) const {
  const int slot = kind_slot(kind);
  if (slot < 0 || thread >= state_.size()) return {};
  return membership_[size_t(thread) * kinds_.size() + size_t(slot)];
}

void ThreadSnapshot::set_last(uint32_t thread, int64_t new_position) {
  // Line counts include running and waiting threads, not finished ones.
  State& s = state_[thread];
  if (s.position >= 0 && s.kind != EventKind::ThreadEnd) --line_counts_[s.line];
  s = State{};
  if (new_position < 0) return;
  const Event& e = model_->at(size_t(new_position));
  s = {new_position, blocks_thread(e.kind) ? e.b : 0, e.line, e.kind, (e.flags & kFlagStuck) != 0};
  if (e.kind != EventKind::ThreadEnd) ++line_counts_[e.line];
}

void ThreadSnapshot::apply(size_t position) {
  const Event& e = model_->at(position);
  if (e.thread >= state_.size()) return;
  set_last(e.thread, int64_t(position));
  if (e.kind == EventKind::GroupCreate && !(e.flags & kFlagStuck)) {
    const int slot = kind_slot(e.group_kind);
    if (slot >= 0)
      membership_[size_t(e.thread) * kinds_.size() + size_t(slot)] = {e.group_id, e.rank,
                                                                      e.group_size, e.extra};
  }
}

void ThreadSnapshot::recompute_thread(uint32_t thread) {
  const std::span<const uint32_t> positions = model_->thread_positions(thread);
  const auto end = std::lower_bound(positions.begin(), positions.end(), uint32_t(cursor_));
  const size_t k = kinds_.size();
  std::fill_n(membership_.begin() + ptrdiff_t(size_t(thread) * k), k, GroupMembership{});
  set_last(thread, end == positions.begin() ? -1 : int64_t(*(end - 1)));
  for (auto it = positions.begin(); it != end; ++it) {
    const Event& e = model_->at(*it);
    if (e.kind != EventKind::GroupCreate || (e.flags & kFlagStuck)) continue;
    const int slot = kind_slot(e.group_kind);
    if (slot >= 0)
      membership_[size_t(thread) * k + size_t(slot)] = {e.group_id, e.rank, e.group_size, e.extra};
  }
}

void ThreadSnapshot::rebuild() {
  std::fill(state_.begin(), state_.end(), State{});
  std::fill(membership_.begin(), membership_.end(), GroupMembership{});
  std::fill(line_counts_.begin(), line_counts_.end(), 0u);
  for (size_t pos = 0; pos < cursor_; ++pos) apply(pos);
}

void ThreadSnapshot::update(const TimelineModel& model, size_t cursor) {
  cursor = std::min(cursor, model.size());
  if (model_ != &model) {
    model_ = &model;
    // Which group kinds appear, and how many source lines there are: fixed per model.
    std::vector<bool> seen(size_t(GroupKind::Count), false);
    int max_line = 0;
    for (size_t pos = 0; pos < model.size(); ++pos) {
      const Event& e = model.at(pos);
      max_line = std::max(max_line, int(e.line));
      if (e.kind == EventKind::GroupCreate && size_t(e.group_kind) < seen.size())
        seen[size_t(e.group_kind)] = true;
    }
    kinds_.clear();
    slot_of_kind_.assign(size_t(GroupKind::Count), -1);
    for (size_t k = 0; k < seen.size(); ++k)
      if (seen[k]) {
        slot_of_kind_[k] = int8_t(kinds_.size());
        kinds_.push_back(GroupKind(k));
      }
    state_.assign(model.thread_count(), State{});
    membership_.assign(size_t(model.thread_count()) * kinds_.size(), GroupMembership{});
    line_counts_.assign(size_t(max_line) + 1, 0u);
    cursor_ = cursor;
    rebuild();
  } else if (cursor > cursor_) {
    // Forward is never more work than a rebuild: apply just the new events.
    for (size_t pos = cursor_; pos < cursor; ++pos) apply(pos);
    cursor_ = cursor;
  } else if (cursor < cursor_) {
    if ((cursor_ - cursor) * 4 < cursor) {
      // Back a little: only the threads with events in [cursor, cursor_) change.
      std::vector<uint32_t> touched;
      for (size_t pos = cursor; pos < cursor_; ++pos) touched.push_back(model.at(pos).thread);
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      cursor_ = cursor;
      for (uint32_t t : touched)
        if (t < state_.size()) recompute_thread(t);
    } else {
      cursor_ = cursor;
      rebuild();
    }
  }
  // After the last event the launch is over: every barrier has released its threads (the last
  // departure may be later than the last recorded event's time).
  now_ = cursor_ >= model.size() && cursor_ > 0 ? UINT64_MAX
         : cursor_ > 0                          ? model.at(cursor_ - 1).time
                                                : 0;
}

}  // namespace coop::visual
