// --schedule and --seed, as `coopviz run`, `coopviz gui` and `coopviz bench emu` take them: the
// emulator's way of interleaving threads (device/launch/schedule.hpp) and its seed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "device/launch/result.hpp"
#include "device/launch/schedule.hpp"

namespace coop::app {

struct ScheduleOptions {
  std::string schedule = "lockstep";
  uint64_t seed = 0;
};

void add_schedule_options(CLI::App* cmd, ScheduleOptions& options);

// The schedule named, or why it cannot be used: random and its run on one OS thread (`jobs`) and
// only on the emulator (`gpu`: the run goes to a GPU, which schedules its threads itself).
Result<Schedule> check_schedule(const ScheduleOptions& options, unsigned jobs, bool gpu);

}  // namespace coop::app
