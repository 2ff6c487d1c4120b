// The result tabs under the thread grid: one row each, naming the tab as the window titles it,
// as scripts and lesson steps name it, and the id its pop-out window keeps.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace coop::app {

enum class ResultTab {
  Checks,
  ThreadEvents,
  Barriers,
  Atomics,
  DataFlow,
  Memory,
  Occupancy,
  Schedule,
  Benchmark,
  None
};
inline constexpr int kResultTabCount = int(ResultTab::None);

struct TabRow {
  ResultTab id;
  const char* name;       // in scripts and lesson steps ("barriers")
  const char* title;      // on screen ("Barriers")
  const char* window_id;  // "###id": a popped-out window keeps its place when retitled
  // The share of the right column the thread grid keeps when a step opens this tab, in the
  // default mode and in presentation (whose large type needs more room for the same content):
  // calculators and charts need most of it; elsewhere the grid is the picture.
  float grid_share = 0.6f;
  float presentation_grid_share = 0.6f;
};

// Every tab, in the order the tab row shows them.
std::span<const TabRow> tab_rows();
const TabRow& tab_row(ResultTab tab);
// The tab a script or step names, or nullopt.
std::optional<ResultTab> tab_named(std::string_view name);
// "checks, events, barriers, ..." for messages.
std::string tab_names();

}  // namespace coop::app
