// [SECTION] The Occupancy and SM schedule tabs: the occupancy panel for the kernel of the shown
// launch (its compiled registers and shared memory, its launch), and the blocks of a launch laid
// out per SM over time when the launch recorded them (the block-scheduling lesson does).
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "app/gui/gui_app.hpp"
#include "app/gui/panels.hpp"
#include "device/occupancy/block_schedule.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/presets.hpp"
#include "visual/occupancy_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

const Trace* shown_trace(const GuiApp& app) {
  if (app.models.empty() || app.launch < 0 || size_t(app.launch) >= app.models.size()) return nullptr;
  return &app.models[size_t(app.launch)]->trace();
}

}  // namespace

void draw_occupancy_tab(GuiApp& app) {
  static visual::OccupancyPanelState state;
  visual::OccupancyPanelInput in;
  if (const Trace* t = shown_trace(app)) {
    in.device = t->header.device;
    in.kernel_name = t->header.kernel;
    in.launch = t->header.launch;
    const int arch = in.device.cc_major * 10 + in.device.cc_minor;
    if (const CompiledKernelResources* row = find_compiled_resources(nullptr, in.kernel_name, arch))
      in.kernel = to_kernel_resources(*row, in.device);
  } else {
    in.device = default_emulated_device();
    in.launch = app.config;
  }
  visual::draw_occupancy_panel(in, state);
}

void draw_schedule_tab(GuiApp& app) {
  static visual::BlockScheduleViewState state;
  // The schedule is read from the trace once per launch shown, and the playback moment's place
  // in it once per cursor position, not every frame.
  static const Trace* read_from = nullptr;
  static BlockSchedule schedule;
  static size_t now_cursor = SIZE_MAX;
  static std::optional<double> now;
  const Trace* t = shown_trace(app);
  if (t != read_from) {
    schedule = t ? schedule_from_trace(*t) : BlockSchedule{};
    read_from = t;
    now_cursor = SIZE_MAX;
  }
  const visual::TimelineModel* m = app.model();
  if (m && t && &m->trace() == t && app.playback.cursor != now_cursor) {
    // The moment in schedule time: the latest block start or end that playback has shown.
    // Playback is in time order, so that is the nearest such record before the cursor.
    now_cursor = app.playback.cursor;
    now.reset();
    for (size_t i = std::min(now_cursor, m->size()); i-- > 0;) {
      const Event& e = m->at(i);
      if (e.group_kind == GroupKind::Block &&
          (e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd)) {
        now = schedule.from_trace_time(e.time);
        break;
      }
    }
  }
  if (schedule.blocks.empty()) {
    visual::text_wrappedf("This launch recorded no block start and end times. The \"Block scheduling "
                       "and waves\" lesson records them: each block notes its SM and when it "
                       "started and finished.");
    return;
  }
  visual::draw_block_schedule(schedule, state, now);
}

}  // namespace coop::app
