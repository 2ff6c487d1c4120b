// The Atomics tab: the order atomics landed in at each address, and the updates a race lost.
#include <imgui.h>

#include <optional>
#include <vector>

#include "app/gui/panels.hpp"
#include "visual/memory_order.hpp"

namespace coop::app {
namespace {

struct AtomicData {
  std::optional<std::vector<visual::AddressHistory>> histories;  // every address, once per launch
};

void draw_atomics_tab(GuiApp& app) {
  if (no_trace_yet(app)) return;
  const visual::TimelineModel& m = *app.model();
  AtomicData& d = tab_data<AtomicData>(app, ResultTab::Atomics);
  if (!d.histories) d.histories = visual::build_memory_histories(m);
  bool in_sight = true;
  seek_from_view(app, visual::draw_atomic_order_view("atomics", m, *d.histories,
                                                     app.playback.cursor, &in_sight));
  app.tab_focus_in_sight = in_sight ? 1 : 0;
}

}  // namespace

extern const TabView kAtomicsTab = {draw_atomics_tab, event_kind_bits({EventKind::Atomic})};

}  // namespace coop::app
