// What every thread is doing at one playback cursor: its last event, the source line it is at,
// whether it waits at a barrier, and which groups it belongs to by then. Kept up to date
// incrementally as playback moves, so a 64K-thread trace can be scrubbed without a full rescan.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "visual/timeline_model.hpp"

namespace coop::visual {

enum class ThreadActivity : uint8_t {
  NotStarted,  // no event of this thread yet
  Running,     // between events
  Waiting,     // arrived at a barrier (or copy wait) that has not released it yet
  Done,        // recorded ThreadEnd
  Stuck,       // waits forever in a call that cannot complete (a deadlock the emulator found)
};

// A thread's place in one group, from its latest GroupCreate event of that group kind.
struct GroupMembership {
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  uint32_t id = kNone;  // Event::group_id; kNone: the thread has not created such a group yet
  uint32_t rank = 0;
  uint32_t size = 0;
  uint32_t meta = 0;  // Event::extra of the GroupCreate (meta group rank and size)
  bool member() const { return id != kNone; }
};

class ThreadSnapshot {
 public:
  // Points the snapshot at `model` and puts it at `cursor`. Moving by a few thousand events
  // updates only the threads those events touch; longer jumps rebuild from the start.
  void update(const TimelineModel& model, size_t cursor);
  // Forgets the model (call when it is destroyed).
  void reset() { model_ = nullptr; }

  const TimelineModel* model() const { return model_; }
  size_t cursor() const { return cursor_; }
  uint64_t now() const { return now_; }  // timestamp of the last event shown (0 before any)

  uint32_t thread_count() const { return uint32_t(state_.size()); }
  // The thread's last event position (< cursor), or -1.
  int64_t last_position(uint32_t thread) const { return state_[thread].position; }
  int line(uint32_t thread) const { return state_[thread].line; }  // 0 before its first event
  EventKind last_kind(uint32_t thread) const { return state_[thread].kind; }
  ThreadActivity activity(uint32_t thread) const;
  // Whether playback has passed the thread's last recorded event: nothing more of it happens (a
  // kernel records no exit for every thread, so this is where it finished).
  bool played_last_event(uint32_t thread) const;

  // Group kinds the trace creates (GroupCreate events), in enum order.
  const std::vector<GroupKind>& group_kinds() const { return kinds_; }
  GroupMembership membership(uint32_t thread, GroupKind kind) const;

  // How many started threads are at each source line (index = line): running (their last
  // recorded event included), waiting or stuck; not those that recorded ThreadEnd.
  const std::vector<uint32_t>& line_counts() const { return line_counts_; }

 private:
  // What a view needs of a thread's last event, copied so hot loops over 64K threads stay in
  // cache instead of chasing events across the trace.
  struct State {
    int64_t position = -1;
    uint64_t depart = 0;  // barrier departure time (Event::b) of blocking kinds
    uint16_t line = 0;
    EventKind kind = EventKind::None;
    bool stuck = false;  // the event is a deadlock's "waits here forever" (kFlagStuck)
  };

  void rebuild();
  void apply(size_t position);             // forward by one event
  void recompute_thread(uint32_t thread);  // from the thread's own events before cursor_
  void set_last(uint32_t thread, int64_t new_position);
  int kind_slot(GroupKind kind) const;

  const TimelineModel* model_ = nullptr;
  size_t cursor_ = 0;
  uint64_t now_ = 0;
  std::vector<State> state_;  // per thread
  std::vector<GroupKind> kinds_;
  std::vector<int8_t> slot_of_kind_;         // GroupKind -> index in kinds_, or -1
  std::vector<GroupMembership> membership_;  // thread * kinds_.size() + slot
  std::vector<uint32_t> line_counts_;
};

}  // namespace coop::visual
