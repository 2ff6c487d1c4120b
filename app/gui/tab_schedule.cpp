// The SM schedule tab: the blocks of a launch laid out per SM over time, when the launch
// recorded each block's SM and its start and end (a lesson about block scheduling does).
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "app/gui/panels.hpp"
#include "device/occupancy/block_schedule.hpp"
#include "visual/occupancy_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// Read from the launch once, and the playback moment's place in it once per cursor position,
// not every frame.
struct ScheduleData {
  std::optional<bool> recorded;  // the launch recorded when its blocks started and ended
  std::optional<BlockSchedule> schedule;
  size_t now_cursor = SIZE_MAX;
  std::optional<double> now;
};

// The records a block makes of its start and end (with its SM).
bool is_block_record(const Event& e) {
  return e.group_kind == GroupKind::Block &&
         (e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd);
}

void draw_schedule_tab(GuiApp& app) {
  // Zoom and scroll stay when another launch is shown.
  static visual::BlockScheduleViewState state;
  ScheduleData& d = tab_data<ScheduleData>(app, ResultTab::Schedule);
  const Trace* t = app.shown_trace();
  if (!d.schedule) d.schedule = t ? schedule_from_trace(*t) : BlockSchedule{};
  const visual::TimelineModel* m = app.model();
  if (m && t && &m->trace() == t && app.playback.cursor != d.now_cursor) {
    // The moment in schedule time: the latest block start or end that playback has shown.
    // Playback is in time order, so that is the nearest such record before the cursor.
    d.now_cursor = app.playback.cursor;
    d.now.reset();
    for (size_t i = std::min(d.now_cursor, m->size()); i-- > 0;) {
      if (const Event& e = m->at(i); is_block_record(e)) {
        d.now = d.schedule->from_trace_time(e.time);
        break;
      }
    }
  }
  if (d.schedule->blocks.empty()) {
    visual::text_wrappedf(
        "This launch recorded no block start and end times. The \"Block scheduling "
        "and waves\" lesson records them: each block notes its SM and when it "
        "started and finished.");
    return;
  }
  visual::draw_block_schedule(*d.schedule, state, d.now);
}

bool recorded_blocks(GuiApp& app) {
  ScheduleData& d = tab_data<ScheduleData>(app, ResultTab::Schedule);
  if (!d.recorded) {
    d.recorded = false;
    if (const visual::TimelineModel* m = app.model())
      d.recorded = std::ranges::any_of(m->trace().events, [](const Event& e) {
        return e.kind == EventKind::ThreadBegin && e.group_kind == GroupKind::Block;
      });
  }
  return *d.recorded;
}

}  // namespace

extern const TabView kScheduleTab = {draw_schedule_tab, event_kind_bits({EventKind::ThreadBegin}),
                                     recorded_blocks};

}  // namespace coop::app
