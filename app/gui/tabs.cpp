#include "app/gui/tabs.hpp"

namespace coop::app {

// Each tab's view, defined in app/gui/tab_<name>.cpp.
extern const TabView kChecksTab, kEventsTab, kBarriersTab, kAtomicsTab, kFlowTab, kMemoryTab,
    kOccupancyTab, kScheduleTab, kBenchmarkTab, kExerciseTab;

namespace {

// Titles come from tab_names.cpp, which lesson checks read without a window.
const TabRow kRows[] = {
    {ResultTab::Checks, tab_title(ResultTab::Checks), "###checks", &kChecksTab},
    {ResultTab::ThreadEvents, tab_title(ResultTab::ThreadEvents), "###events", &kEventsTab},
    {ResultTab::Barriers, tab_title(ResultTab::Barriers), "###barriers", &kBarriersTab},
    {ResultTab::Atomics, tab_title(ResultTab::Atomics), "###atomics", &kAtomicsTab, 0.6f, 0.45f},
    {ResultTab::DataFlow, tab_title(ResultTab::DataFlow), "###flow", &kFlowTab, 0.6f, 0.45f},
    {ResultTab::Memory, tab_title(ResultTab::Memory), "###memory", &kMemoryTab, 0.45f, 0.34f},
    {ResultTab::Occupancy, tab_title(ResultTab::Occupancy), "###occupancy", &kOccupancyTab, 0.34f,
     0.26f},
    {ResultTab::Schedule, tab_title(ResultTab::Schedule), "###schedule", &kScheduleTab, 0.34f,
     0.26f},
    {ResultTab::Benchmark, tab_title(ResultTab::Benchmark), "###benchmark", &kBenchmarkTab, 0.34f,
     0.26f},
    {ResultTab::Exercise, tab_title(ResultTab::Exercise), "###exercise", &kExerciseTab, 0.3f,
     0.22f},
};
static_assert(std::size(kRows) == size_t(kResultTabCount));

}  // namespace

std::span<const TabRow> tab_rows() {
  return kRows;
}

const TabRow& tab_row(ResultTab tab) {
  for (const TabRow& r : kRows)
    if (r.id == tab) return r;
  return kRows[0];
}

}  // namespace coop::app
