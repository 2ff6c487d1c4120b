// The Memory tab's state that scripts and tests reach too: the one-request view's browser of the
// shown launch's requests (visual/request_browser.hpp).
#pragma once

#include <string>
#include <vector>

#include "app/gui/gui_app.hpp"
#include "app/ncu_compare.hpp"
#include "visual/request_browser.hpp"

namespace coop::app {

// The shown launch's request browser, built on first use and following the playback moment (the
// request the moment has just made); null when no launch is shown.
visual::RequestBrowser* request_browser(GuiApp& app);

// What the tab shows of Nsight Compute's counters for launch `launch` (from 1) of `kernel`: the
// rows of the lesson's ncu.json and the GPU they were measured on, or, with no rows, why not
// ("not measured on a GPU yet", not profiled, unreadable).
struct GpuCountersShown {
  std::string device;
  std::vector<CounterRow> rows;
  std::string message;
};
GpuCountersShown gpu_counters_for(const lessons::LessonDef& lesson, const std::string& kernel,
                                  int launch);

}  // namespace coop::app
