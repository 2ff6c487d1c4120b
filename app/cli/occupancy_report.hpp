// How `coopviz occupancy` shows a result: JSON (stable keys for scripts) or text for people.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/sweep.hpp"

namespace coop::app {

// Where the register count and static shared memory came from ("typed", "default", or the
// compiler's report for a lesson kernel).
struct OccupancyQuery {
  DeviceProps device;
  OccupancyInput input;
  std::string resources_source = "typed";
};

nlohmann::json occupancy_json(const OccupancyQuery& query, const OccupancyResult& result);
nlohmann::json sweep_json(const SweepSeries& series);

void print_occupancy(std::ostream& os, const OccupancyQuery& query, const OccupancyResult& result);
void print_sweep(std::ostream& os, const SweepSeries& series);

}  // namespace coop::app
