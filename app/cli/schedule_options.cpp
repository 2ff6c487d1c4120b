#include "app/cli/schedule_options.hpp"

namespace coop::app {

void add_schedule_options(CLI::App* cmd, ScheduleOptions& options) {
  cmd->add_option("--schedule", options.schedule,
                  "Emulator schedule. lockstep: warps take turns and a warp's lanes run together, "
                  "step point by step point (the default). random: at every step point (shared "
                  "and global loads and stores included) the next warp and block are a seeded "
                  "pick, so races can lose updates. its: random, and a warp's lanes also advance "
                  "one at a time between __syncwarp, tile syncs and collectives, as independent "
                  "thread scheduling (Volta and later) allows")
      ->capture_default_str();
  cmd->add_option("--seed", options.seed,
                  "Emulator schedule seed: lockstep 0 is the default order and others shuffle a "
                  "warp's lanes; under random and its each seed is one interleaving, the same "
                  "every run");
}

Result<Schedule> check_schedule(const ScheduleOptions& options, unsigned jobs, bool gpu) {
  Result<Schedule> schedule = parse_schedule(options.schedule, "--schedule");
  if (!schedule || *schedule == Schedule::Lockstep) return schedule;
  if (gpu)
    return Status::error("--schedule " + options.schedule +
                         " is the emulator's (--backend emu): a GPU schedules its threads itself");
  if (jobs > 1)
    return Status::error("--schedule " + options.schedule +
                         " runs on one OS thread, so that "
                         "its seed reproduces it: drop --jobs " +
                         std::to_string(jobs));
  return schedule;
}

}  // namespace coop::app
