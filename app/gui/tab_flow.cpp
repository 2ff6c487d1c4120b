// The Data flow tab: which values a collective (reduce, scan, shuffle, vote) took from which
// threads and what each got back.
#include <imgui.h>

#include <cstdint>
#include <optional>

#include "app/gui/panels.hpp"
#include "visual/collective_flow.hpp"

namespace coop::app {
namespace {

// The collective shown: found again only when playback moves or another line is picked.
struct FlowData {
  size_t cursor = SIZE_MAX;
  int line = -1;
  std::optional<visual::CollectiveCall> call;
};

void draw_flow_tab(GuiApp& app) {
  if (no_trace_yet(app)) return;
  const visual::TimelineModel& m = *app.model();
  FlowData& d = tab_data<FlowData>(app, ResultTab::DataFlow);
  if (d.cursor != app.playback.cursor || d.line != app.flow_view.line) {
    d.call = visual::collective_before(m, app.playback.cursor, app.flow_view.line);
    d.cursor = app.playback.cursor;
    d.line = app.flow_view.line;
  }
  seek_from_view(app, visual::draw_flow_view("flow", m, d.call, app.flow_view));
}

}  // namespace

extern const TabView kFlowTab = {draw_flow_tab, event_kind_bits({EventKind::Collective})};

}  // namespace coop::app
