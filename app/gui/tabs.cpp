#include "app/gui/tabs.hpp"

namespace coop::app {
namespace {

constexpr TabRow kRows[] = {
    {ResultTab::Checks, "checks", "Checks", "###checks"},
    {ResultTab::ThreadEvents, "events", "Thread events", "###events"},
    {ResultTab::Barriers, "barriers", "Barriers", "###barriers"},
    {ResultTab::Atomics, "atomics", "Atomics", "###atomics", 0.6f, 0.45f},
    {ResultTab::DataFlow, "flow", "Data flow", "###flow", 0.6f, 0.45f},
    {ResultTab::Memory, "memory", "Memory", "###memory"},
    {ResultTab::Occupancy, "occupancy", "Occupancy", "###occupancy", 0.34f, 0.26f},
    {ResultTab::Schedule, "schedule", "SM schedule", "###schedule", 0.34f, 0.26f},
    {ResultTab::Benchmark, "benchmark", "Benchmark", "###benchmark", 0.34f, 0.26f},
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
