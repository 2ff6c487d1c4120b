// The emulator's modelled time: what clock(), clock64(), %globaltimer and __nanosleep read and
// advance. A host runs an emulated thread far slower than an SM, so reading the host's clock would
// make a kernel that waits 10 ms of GPU time wait minutes; instead every thread carries a count of
// SM cycles that advances with the work the emulator sees it do (a fixed cost per step point),
// jumps when it sleeps, and grows geometrically while it does nothing but read the clock (a
// spin-wait), so that waiting N cycles costs about log(N) reads, not N.
//
// Cycles count per thread from the cycle its block started at on its SM (blocks placed on one SM
// start where the SM's finished blocks ended), members of a barrier leave it together at the
// latest member's count, and a launch starts where the device's previous launch ended: values are
// monotonic per thread and plausible across a block. %globaltimer is the same count in ns at the
// emulated device's clock rate (cudaDevAttrClockRate).
#pragma once

#include <cstdint>

#include "device/launch/device_props.hpp"

namespace coop::emu {

// The SM clock modelled time counts at, in MHz: the device's, or 1 GHz where it is not known
// (cudaDevAttrClockRate reports the same).
int modelled_clock_mhz(const DeviceProps& device);

}  // namespace coop::emu

namespace coop::emu::detail {

struct Lane;
struct Block;
struct LaunchState;

// The cost in cycles of the work between two step points of a thread (the emulator sees no
// instructions in between, so one fixed figure stands for them).
inline constexpr uint64_t kCyclesPerStep = 8;

// A launch's modelled clock starts where the device's last launch ended; its SMs' clocks too.
void start_launch_clock(LaunchState& launch, uint32_t sm_count, int clock_mhz);
// The device's clock moves on to the latest cycle any block of the launch reached.
void finish_launch_clock(LaunchState& launch);
// A new block's threads start at its SM's clock; a finished block moves the SM's clock on.
void start_block_clock(LaunchState& launch, Block& block);
void finish_block_clock(LaunchState& launch, const Block& block);

}  // namespace coop::emu::detail
