#include "visual/playback.hpp"

#include <algorithm>
#include <cmath>

namespace coop::visual {

int64_t current_position(const PlaybackState& p) {
  return int64_t(p.cursor) - 1;
}

void seek(PlaybackState& p, const TimelineModel& model, size_t cursor) {
  p.cursor = std::min(cursor, model.size());
  p.carry = 0;
}

void step_events(PlaybackState& p, const TimelineModel& model, int64_t delta) {
  const int64_t target = int64_t(p.cursor) + delta;
  seek(p, model, size_t(std::max<int64_t>(0, target)));
}

void step_phases(PlaybackState& p, const TimelineModel& model, int delta) {
  // A phase "ends" at position e; the cursor that shows it complete is e + 1.
  const std::vector<size_t>& ends = model.phase_ends();
  size_t cursor = p.cursor;
  for (; delta > 0; --delta) {
    // First end at or after the cursor (an end at cursor - 1 is already shown).
    auto it = std::lower_bound(ends.begin(), ends.end(), cursor);
    cursor = it == ends.end() ? model.size() : *it + 1;
  }
  for (; delta < 0; ++delta) {
    // Last end strictly before cursor - 1, so stepping back from a phase end lands on the one
    // before it.
    auto it = std::lower_bound(ends.begin(), ends.end(), cursor == 0 ? 0 : cursor - 1);
    cursor = it == ends.begin() ? 0 : *(it - 1) + 1;
  }
  seek(p, model, cursor);
}

size_t phases_done(const TimelineModel& model, size_t cursor) {
  const std::vector<size_t>& ends = model.phase_ends();
  return size_t(std::lower_bound(ends.begin(), ends.end(), cursor) - ends.begin());
}

double events_per_second(const TimelineModel& model) {
  return std::max(8.0, double(model.size()) / 20.0);
}

bool advance(PlaybackState& p, const TimelineModel& model, double seconds) {
  if (!p.playing || model.size() == 0) return false;
  if (p.cursor >= model.size()) {
    if (!p.loop) {
      p.playing = false;
      return false;
    }
    p.cursor = 0;
  }
  p.carry += seconds * events_per_second(model) * double(p.speed);
  const double whole = std::floor(p.carry);
  if (whole < 1) return false;
  p.carry -= whole;
  const size_t before = p.cursor;
  const double target = double(p.cursor) + whole;
  if (target >= double(model.size())) {
    p.cursor = model.size();
    if (!p.loop) p.playing = false;
  } else {
    p.cursor = size_t(target);
  }
  return p.cursor != before;
}

size_t end_of_moment(const TimelineModel& model, size_t position) {
  if (position >= model.size()) return model.size();
  const uint64_t time = model.at(position).time;
  size_t end = position + 1;
  while (end < model.size() && model.at(end).time == time) ++end;
  return end;
}

size_t find_next_on_line(const TimelineModel& model, size_t from, int line) {
  for (size_t pos = from; pos < model.size(); ++pos)
    if (int(model.at(pos).line) == line) return pos;
  return model.size();
}

std::string playback_status(const TimelineModel& model, const PlaybackState& p) {
  std::string s = "event " + std::to_string(p.cursor) + "/" + std::to_string(model.size());
  if (!model.phase_ends().empty())
    s += "  \xc2\xb7  phase " + std::to_string(phases_done(model, p.cursor)) + "/" +
         std::to_string(model.phase_ends().size());
  if (p.cursor > 0) {
    // Since the launch's first event: the emulator counts scheduler steps, a GPU its
    // global timer's nanoseconds, whose raw value is the time of day.
    const uint64_t t = model.at(p.cursor - 1).time - model.origin();
    s += "  \xc2\xb7  t=" + std::to_string(t) +
         (model.trace().header.backend == Backend::Gpu ? " ns" : "");
  }
  return s;
}

}  // namespace coop::visual
