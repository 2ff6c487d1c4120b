// The tabs that show the trace from other angles than the thread grid: barriers over time,
// atomic landing order and lost updates, collective data flow, and memory contents.
#include <imgui.h>

#include "app/gui/panels.hpp"

namespace coop::app {
namespace {

// Moves playback where a view asked (a clicked bar, ticket or cell).
void seek_to(GuiApp& app, int64_t cursor) {
  if (const visual::TimelineModel* m = app.model(); m && cursor >= 0) {
    visual::seek(app.playback, *m, size_t(cursor));
    app.playback.playing = false;
  }
}

bool no_model(const GuiApp& app) {
  if (app.model()) return false;
  ImGui::TextDisabled(app.running() ? "running..." : "No trace yet.");
  return true;
}

}  // namespace

void draw_barrier_tab(GuiApp& app) {
  if (no_model(app)) return;
  const visual::TimelineModel& m = *app.model();
  DerivedViews& d = app.derived;
  if (!d.barriers || d.barriers->lanes() != app.barrier_view.lanes)
    d.barriers.emplace(m, app.barrier_view.lanes);
  const visual::BarrierViewResult r =
      visual::draw_barrier_view("barriers", m, *d.barriers, app.playback.cursor, app.barrier_view);
  seek_to(app, r.seek);
}

void draw_atomic_tab(GuiApp& app) {
  if (no_model(app)) return;
  const visual::TimelineModel& m = *app.model();
  DerivedViews& d = app.derived;
  if (!d.histories) d.histories = visual::build_memory_histories(m);
  seek_to(app, visual::draw_atomic_order_view("atomics", m, *d.histories, app.playback.cursor));
}

void draw_flow_tab(GuiApp& app) {
  if (no_model(app)) return;
  const visual::TimelineModel& m = *app.model();
  DerivedViews& d = app.derived;
  if (d.flow_cursor != app.playback.cursor || d.flow_line != app.flow_view.line) {
    d.flow = visual::collective_before(m, app.playback.cursor, app.flow_view.line);
    d.flow_cursor = app.playback.cursor;
    d.flow_line = app.flow_view.line;
  }
  seek_to(app, visual::draw_flow_view("flow", m, d.flow, app.flow_view));
}

void draw_memory_tab(GuiApp& app) {
  if (no_model(app)) return;
  const visual::TimelineModel& m = *app.model();
  DerivedViews& d = app.derived;
  if (d.memory_cursor != app.playback.cursor) {
    d.memory = visual::memory_at(m, app.playback.cursor);
    d.memory_cursor = app.playback.cursor;
  }
  seek_to(app, visual::draw_memory_view("memory", m, d.memory, app.playback.cursor));
}

}  // namespace coop::app
