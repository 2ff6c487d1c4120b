// libFuzzer target: the trace loader, both encodings (CBOR ".cvt" and JSON), and what the app does
// with a trace it accepted. A trace file is untrusted input: whatever the bytes, decode_traces must
// either fail with a message or give traces that finalize, feed the timeline the views draw from,
// and save and load again unchanged.
//
// Built by scripts/fuzz.sh with clang++ -fsanitize=fuzzer,address,undefined.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "device/occupancy/block_schedule.hpp"
#include "device/trace/trace_file.hpp"
#include "visual/barrier_timeline.hpp"
#include "visual/collective_flow.hpp"
#include "visual/event_text.hpp"
#include "visual/memory_order.hpp"
#include "visual/memory_state.hpp"
#include "visual/occupancy_panel_model.hpp"
#include "visual/playback.hpp"
#include "visual/thread_snapshot.hpp"
#include "visual/timeline_model.hpp"

namespace {

// Under the sanitizers and coverage counters the JSON round trip takes about a millisecond per
// event; a larger trace (a zstd block of a few kilobytes can hold tens of thousands of events)
// goes round through CBOR only, so that it cannot time out.
constexpr size_t kJsonRoundTripEvents = 1024;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "trace_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The headless models behind the app's views, as the app builds them for a loaded trace.
void exercise_views(const coop::visual::TimelineModel& model) {
  using namespace coop::visual;
  const size_t end = model.size();
  ThreadSnapshot snapshot;
  for (size_t cursor : {size_t(0), end / 2, end, size_t(0)}) snapshot.update(model, cursor);
  for (uint32_t t = 0; t < snapshot.thread_count() && t < 256; ++t) {
    (void)snapshot.activity(t);
    for (coop::GroupKind kind : snapshot.group_kinds()) (void)snapshot.membership(t, kind);
  }
  for (BarrierLanes lanes : {BarrierLanes::Warps, BarrierLanes::Blocks}) {
    const BarrierTimeline barriers(model, lanes);
    for (uint32_t l = 0; l < barriers.lane_count() && l < 256; ++l)
      (void)barriers.lane_between(l, barriers.begin_time(), barriers.end_time());
  }
  (void)memory_at(model, end / 2);
  (void)memory_at(model, end);
  (void)build_memory_histories(model);
  (void)collective_before(model, end);
  for (size_t p = 0; p < end && p < 256; ++p)
    (void)describe_event(model.at(p), model.trace().header);
  PlaybackState playback;
  step_phases(playback, model, 1);
  step_events(playback, model, 3);
  (void)advance(playback, model, 0.5);
  seek(playback, model, end);
  step_phases(playback, model, -2);

  // The Occupancy and SM schedule tabs take the device, launch and block records from the file.
  const coop::BlockSchedule schedule = coop::schedule_from_trace(model.trace());
  (void)coop::peak_resident_per_sm(schedule);
  (void)coop::slots_of_blocks(schedule);
  OccupancyPanelInput input;
  input.device = model.trace().header.device;
  input.kernel_name = model.trace().header.kernel;
  input.launch = model.launch();
  OccupancyPanelState state;
  reset_panel_state(input, state);
  (void)build_occupancy_panel_model(input, state);
}

// Walks what the views ask the timeline for, so out-of-range indices surface under ASan.
void exercise_timeline(const coop::Trace& trace) {
  const coop::visual::TimelineModel model(trace);
  if (model.size() != trace.events.size()) fail("timeline", "lost events");
  size_t positions = 0;
  const uint32_t threads = model.thread_count();
  // Every thread up to a bound, then the last one (the largest index the views use).
  for (uint32_t t = 0; t < threads && t < 4096; ++t) positions += model.thread_positions(t).size();
  if (threads > 0) {
    (void)model.thread_positions(threads - 1);
    (void)model.thread_position_at(threads - 1, model.size());
  }
  (void)model.thread_positions(threads);  // one past the end must be empty, not a read
  if (threads <= 4096 && positions != model.size()) fail("timeline", "thread positions lost");
  for (size_t p = 0; p < model.size(); ++p) {
    const coop::Event& e = model.at(p);
    if (model.thread_position_at(e.thread, p) != int64_t(p)) fail("timeline", "position lookup");
  }
  size_t previous = 0;
  for (size_t end : model.phase_ends()) {
    if (end >= model.size() || end < previous) fail("timeline", "phase end out of order");
    previous = end;
  }
  const int lines[] = {0, 1, 2};
  for (auto kind : {coop::EventKind::Barrier, coop::EventKind::Atomic, coop::EventKind::Store})
    if (model.find_next(0, kind, lines) > model.size()) fail("timeline", "find_next");
  exercise_views(model);
}

void expect_same(const std::vector<coop::Trace>& a, const std::vector<coop::Trace>& b,
                 bool strings) {
  if (a.size() != b.size()) fail("round trip", "launch count changed");
  for (size_t i = 0; i < a.size(); ++i) {
    const coop::TraceHeader &x = a[i].header, &y = b[i].header;
    if (!(x.launch == y.launch) || x.attempts != y.attempts || x.capacity != y.capacity ||
        x.seed != y.seed || x.backend != y.backend || x.buffers.size() != y.buffers.size())
      fail("round trip", "header of launch " + std::to_string(i) + " changed");
    // JSON text must be UTF-8, so a CBOR string with other bytes comes back with replacements.
    if (strings && (x.lesson != y.lesson || x.params != y.params || x.source != y.source))
      fail("round trip", "header strings of launch " + std::to_string(i) + " changed");
    if (a[i].events.size() != b[i].events.size() ||
        (!a[i].events.empty() && std::memcmp(a[i].events.data(), b[i].events.data(),
                                             a[i].events.size() * sizeof(coop::Event)) != 0))
      fail("round trip", "events of launch " + std::to_string(i) + " changed");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  coop::Result<std::vector<coop::Trace>> traces = coop::decode_traces(bytes);
  if (!traces) {
    if (traces.message().empty()) fail("decode", "an error without a message");
    return 0;
  }
  size_t events = 0;
  for (coop::Trace& t : *traces) {
    coop::finalize_trace(t);
    exercise_timeline(t);
    events += t.events.size();
  }
  for (auto encoding : {coop::TraceEncoding::Cbor, coop::TraceEncoding::Json}) {
    if (encoding == coop::TraceEncoding::Json && events > kJsonRoundTripEvents) break;
    const std::string saved = coop::encode_traces(*traces, encoding);
    coop::Result<std::vector<coop::Trace>> again = coop::decode_traces(saved);
    if (!again) fail("round trip", again.message());
    expect_same(*traces, *again, encoding == coop::TraceEncoding::Cbor);
  }
  return 0;
}
