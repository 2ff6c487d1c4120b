#include "app/gui/tabs.hpp"

namespace coop::app {

// Each tab's view, defined in app/gui/tab_<name>.cpp.
extern const TabView kChecksTab, kEventsTab, kBarriersTab, kAtomicsTab, kFlowTab, kMemoryTab,
    kOccupancyTab, kScheduleTab, kBenchmarkTab, kExerciseTab;

namespace {

constexpr TabRow kRows[] = {
    {ResultTab::Checks, "checks", "Checks", "###checks", &kChecksTab},
    {ResultTab::ThreadEvents, "events", "Thread events", "###events", &kEventsTab},
    {ResultTab::Barriers, "barriers", "Barriers", "###barriers", &kBarriersTab},
    {ResultTab::Atomics, "atomics", "Atomics", "###atomics", &kAtomicsTab, 0.6f, 0.45f},
    {ResultTab::DataFlow, "flow", "Data flow", "###flow", &kFlowTab, 0.6f, 0.45f},
    {ResultTab::Memory, "memory", "Memory", "###memory", &kMemoryTab, 0.45f, 0.34f},
    {ResultTab::Occupancy, "occupancy", "Occupancy", "###occupancy", &kOccupancyTab, 0.34f, 0.26f},
    {ResultTab::Schedule, "schedule", "SM schedule", "###schedule", &kScheduleTab, 0.34f, 0.26f},
    {ResultTab::Benchmark, "benchmark", "Benchmark", "###benchmark", &kBenchmarkTab, 0.34f, 0.26f},
    {ResultTab::Exercise, "exercise", "Exercise", "###exercise", &kExerciseTab, 0.3f, 0.22f},
};
static_assert(std::size(kRows) == size_t(kResultTabCount));

}  // namespace

std::span<const TabRow> tab_rows() { return kRows; }

const TabRow& tab_row(ResultTab tab) {
  for (const TabRow& r : kRows)
    if (r.id == tab) return r;
  return kRows[0];
}

std::optional<ResultTab> tab_named(std::string_view name) {
  for (const TabRow& r : kRows)
    if (name == r.name) return r.id;
  return std::nullopt;
}

std::string tab_names() {
  std::string s;
  for (const TabRow& r : kRows) s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

}  // namespace coop::app
