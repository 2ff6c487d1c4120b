// The result tabs' names, as scripts and lesson steps write them, in the tab row's order.
#include "app/gui/tabs.hpp"

namespace coop::app {
namespace {

constexpr const char* kNames[] = {"checks", "events",    "barriers", "atomics",   "flow",
                                  "memory", "occupancy", "schedule", "benchmark", "exercise"};
static_assert(std::size(kNames) == size_t(kResultTabCount));
// What the tab row shows, which lesson text must use when it names a tab.
constexpr const char* kTitles[] = {"Checks",    "Thread events", "Barriers",    "Atomics",
                                   "Data flow", "Memory",        "Occupancy",   "SM schedule",
                                   "Benchmark", "Exercise"};
static_assert(std::size(kTitles) == size_t(kResultTabCount));

}  // namespace

const char* tab_name(ResultTab tab) {
  return tab == ResultTab::None ? "none" : kNames[int(tab)];
}

const char* tab_title(ResultTab tab) {
  return tab == ResultTab::None ? "" : kTitles[int(tab)];
}

std::optional<ResultTab> tab_named(std::string_view name) {
  for (int i = 0; i < kResultTabCount; ++i)
    if (name == kNames[i]) return ResultTab(i);
  return std::nullopt;
}

std::string tab_names() {
  std::string s;
  for (const char* n : kNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

std::string tab_titles() {
  std::string s;
  for (const char* t : kTitles) s += (s.empty() ? "" : ", ") + std::string(t);
  return s;
}

}  // namespace coop::app
