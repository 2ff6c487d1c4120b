#include "app/gui/tabs.hpp"

namespace coop::app {

// Each tab's view, defined in app/gui/tab_<name>.cpp.
extern const TabView kChecksTab, kEventsTab, kBarriersTab, kAtomicsTab, kFlowTab, kMemoryTab,
    kOccupancyTab, kScheduleTab, kBenchmarkTab, kExerciseTab;

namespace {

constexpr TabRow kRows[] = {
    {ResultTab::Checks, "Checks", "###checks", &kChecksTab},
    {ResultTab::ThreadEvents, "Thread events", "###events", &kEventsTab},
    {ResultTab::Barriers, "Barriers", "###barriers", &kBarriersTab},
    {ResultTab::Atomics, "Atomics", "###atomics", &kAtomicsTab, 0.6f, 0.45f},
    {ResultTab::DataFlow, "Data flow", "###flow", &kFlowTab, 0.6f, 0.45f},
    {ResultTab::Memory, "Memory", "###memory", &kMemoryTab, 0.45f, 0.34f},
    {ResultTab::Occupancy, "Occupancy", "###occupancy", &kOccupancyTab, 0.34f, 0.26f},
    {ResultTab::Schedule, "SM schedule", "###schedule", &kScheduleTab, 0.34f, 0.26f},
    {ResultTab::Benchmark, "Benchmark", "###benchmark", &kBenchmarkTab, 0.34f, 0.26f},
    {ResultTab::Exercise, "Exercise", "###exercise", &kExerciseTab, 0.3f, 0.22f},
};
static_assert(std::size(kRows) == size_t(kResultTabCount));

}  // namespace

std::span<const TabRow> tab_rows() { return kRows; }

const TabRow& tab_row(ResultTab tab) {
  for (const TabRow& r : kRows)
    if (r.id == tab) return r;
  return kRows[0];
}

}  // namespace coop::app
