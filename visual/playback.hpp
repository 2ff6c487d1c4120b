// Where playback stands in a timeline, and how it moves: by event, by barrier phase, by seeking,
// or by playing at a speed. Pure data: the views read it, the keyboard and buttons change it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "visual/timeline_model.hpp"

namespace coop::visual {

struct PlaybackState {
  // Events shown: playback positions [0, cursor) have happened. 0 is "before the launch",
  // model.size() is "after the last event".
  size_t cursor = 0;
  bool playing = false;
  bool loop = false;
  float speed = 1.0f;  // multiplier of the base rate (events_per_second)
  double carry = 0.0;  // fraction of an event accumulated while playing
};

// The event that happened last at `cursor` (position cursor - 1), or -1 before the first one.
int64_t current_position(const PlaybackState& p);

// Moves to `cursor` (clamped to 0 .. model.size()).
void seek(PlaybackState& p, const TimelineModel& model, size_t cursor);

// Steps `delta` events forward (positive) or back (negative).
void step_events(PlaybackState& p, const TimelineModel& model, int64_t delta);

// Steps to the end of the next (delta > 0) or previous (delta < 0) barrier phase: just after the
// last departure of a (group, phase), so every member of that barrier has passed it. Without
// phases in the trace it moves to the end or the start.
void step_phases(PlaybackState& p, const TimelineModel& model, int delta);

// Number of barrier phases complete at `cursor` (phase_ends before it).
size_t phases_done(const TimelineModel& model, size_t cursor);

// The base playing rate: the whole trace in about 20 s, but never slower than 8 events a second.
double events_per_second(const TimelineModel& model);

// Advances a playing state by `seconds` of wall time; stops (or wraps, with loop) at the end.
// Returns true when the cursor moved.
bool advance(PlaybackState& p, const TimelineModel& model, double seconds);

// The cursor just after every event of the moment (same timestamp) that `position` belongs to,
// so a jump to an event shows all threads that did the same thing at that time.
size_t end_of_moment(const TimelineModel& model, size_t position);

// The first position at or after `from` whose event is on `line`; model.size() if none.
size_t find_next_on_line(const TimelineModel& model, size_t from, int line);

// "event 120/1666 · phase 3/24 · t=17": events shown, barrier phases complete, and the time
// since the first event (in ns on a GPU).
std::string playback_status(const TimelineModel& model, const PlaybackState& playback);

}  // namespace coop::visual
