// The result tabs under the thread grid: one row each, naming the tab as the window titles it,
// as scripts and lesson steps name it, and the id its pop-out window keeps, with the view that
// draws it. Each tab's view lives in a file of its own, app/gui/tab_<name>.cpp; adding a tab is
// that file and its row in tabs.cpp.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "device/trace/event.hpp"

namespace coop::app {

struct GuiApp;

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
  Exercise,
  None
};
inline constexpr int kResultTabCount = int(ResultTab::None);

// Bit k set for each EventKind k in `kinds`.
constexpr uint32_t event_kind_bits(std::initializer_list<EventKind> kinds) {
  uint32_t bits = 0;
  for (EventKind k : kinds) bits |= 1u << unsigned(k);
  return bits;
}

// How a tab is drawn and when it has something to show; its file defines it.
struct TabView {
  void (*draw)(GuiApp& app);
  // The events the tab is about (event_kind_bits): it is offered only for a launch that recorded
  // one of them. 0: it does not depend on the events.
  uint32_t event_kinds = 0;
  // What else it needs (a selection, a lesson with a benchmark), or null: nothing else.
  bool (*has_content)(GuiApp& app) = nullptr;
};

struct TabRow {
  ResultTab id;
  const char* title;      // on screen ("Barriers")
  const char* window_id;  // "###id": a popped-out window keeps its place when retitled
  const TabView* view;
  // The share of the right column the thread grid keeps when a step opens this tab, in the
  // default mode and in presentation (whose large type needs more room for the same content):
  // calculators and charts need most of it; elsewhere the grid is the picture.
  float grid_share = 0.6f;
  float presentation_grid_share = 0.6f;
};

// Every tab, in the order the tab row shows them.
std::span<const TabRow> tab_rows();
const TabRow& tab_row(ResultTab tab);
// The tabs' names in scripts and lesson steps ("barriers"), which need no window (tab_names.cpp,
// linked without the GUI: `coopviz lesson check` checks a step's tab by it).
const char* tab_name(ResultTab tab);
// The tab a script or step names, or nullopt.
std::optional<ResultTab> tab_named(std::string_view name);
// "checks, events, barriers, ..." for messages.
std::string tab_names();
// The title the tab row shows ("Thread events"), and all of them for messages.
const char* tab_title(ResultTab tab);
std::string tab_titles();

}  // namespace coop::app
