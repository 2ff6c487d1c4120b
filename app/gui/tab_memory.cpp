// The Memory tab: the contents of the arrays the kernel traced, as they stand at the playback
// moment.
#include <imgui.h>

#include <cstdint>
#include <vector>

#include "app/gui/panels.hpp"
#include "visual/memory_state.hpp"

namespace coop::app {
namespace {

// The arrays at `cursor`: found again only when playback moves.
struct MemoryData {
  size_t cursor = SIZE_MAX;
  std::vector<visual::MemoryArray> arrays;
};

void draw(GuiApp& app) {
  if (no_trace_yet(app)) return;
  const visual::TimelineModel& m = *app.model();
  MemoryData& d = tab_data<MemoryData>(app, ResultTab::Memory);
  if (d.cursor != app.playback.cursor) {
    d.arrays = visual::memory_at(m, app.playback.cursor);
    d.cursor = app.playback.cursor;
  }
  seek_from_view(app, visual::draw_memory_view("memory", m, d.arrays, app.playback.cursor));
}

}  // namespace

extern const TabView kMemoryTab = {
    draw, event_kind_bits({EventKind::Load, EventKind::Store, EventKind::CopyIssue})};

}  // namespace coop::app
