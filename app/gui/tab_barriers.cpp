// The Barriers tab: each group's barrier phases over time, who waited and for how long.
#include <imgui.h>

#include <optional>

#include "app/gui/panels.hpp"
#include "visual/barrier_timeline.hpp"

namespace coop::app {
namespace {

// Built from the launch when first drawn, and again when the lanes setting changes.
struct BarrierData {
  std::optional<visual::BarrierTimeline> timeline;
};

void draw_barriers_tab(GuiApp& app) {
  if (no_trace_yet(app)) return;
  const visual::TimelineModel& m = *app.model();
  BarrierData& d = tab_data<BarrierData>(app, ResultTab::Barriers);
  if (!d.timeline || d.timeline->lanes() != app.barrier_view.lanes)
    d.timeline.emplace(m, app.barrier_view.lanes);
  const visual::BarrierViewResult r =
      visual::draw_barrier_view("barriers", m, *d.timeline, app.playback.cursor, app.barrier_view);
  seek_from_view(app, r.seek);
}

}  // namespace

extern const TabView kBarriersTab = {
    draw_barriers_tab,
    event_kind_bits({EventKind::Barrier, EventKind::BarrierArrive, EventKind::BarrierWait})};

}  // namespace coop::app
