// How the emulator orders its threads between step points (`--schedule`). A GPU runs its own
// order; these are the emulator's ways of choosing one of the legal ones, each reproducible from
// its seed.
#pragma once

#include <cstdint>
#include <string_view>

#include "device/launch/result.hpp"

namespace coop {

enum class Schedule : uint8_t {
  // Warps take turns in a fixed order; a warp's lanes run in lock-step, those waiting at the same
  // step point released together as one instruction. The seed shuffles lanes within a warp.
  Lockstep,
  // At every step point the next warp, of any resident block, is a seeded pick, and blocks start
  // in a seeded order; shared and global loads and stores are step points too (through the memory
  // instrumentation, recorded or not), so a thread can be preempted between a load and its store.
  // A warp's lanes still go on together, and catch up before coalesced_threads()/__activemask().
  Random,
  // Independent thread scheduling (Volta and later): as Random, and a warp's lanes also advance
  // one at a time between convergence points (__syncwarp, tile sync, collectives).
  Its,
};

inline constexpr const char* kScheduleNames[] = {"lockstep", "random", "its"};

const char* to_string(Schedule schedule);

// "lockstep", "random" or "its"; `what` names the option in the error.
Result<Schedule> parse_schedule(std::string_view text, std::string_view what);

}  // namespace coop
