// [SECTION] The emulator's modelled time (modelled_time.hpp): per-thread SM cycles, per-SM and
// per-device clocks, and the kernel-side reads of clock64(), %globaltimer and __nanosleep.
#include "device/emu/modelled_time.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "device/emu/scheduler_state.hpp"

namespace coop::emu {
namespace {

// The cycle the next launch starts at: where the latest block of the device's last launch ended.
std::atomic<uint64_t> g_device_cycles{0};

// A clock read costs this much when it is not part of a spin (two reads in a row differ).
constexpr uint64_t kClockReadCycles = 16;
// A spin's step grows to 1/32 of the cycles spun so far (a wait ends at most about 3% late), up
// to about 8 ms at 2 GHz per read, so that even an endless spin keeps the count far from wrapping.
constexpr uint64_t kSpinGrowth = 32;
constexpr uint64_t kMaxSpinStep = uint64_t(1) << 24;

void raise(std::atomic<uint64_t>& clock, uint64_t to) {
  uint64_t seen = clock.load(std::memory_order_relaxed);
  while (seen < to && !clock.compare_exchange_weak(seen, to, std::memory_order_relaxed)) {
  }
}

// %globaltimer counts ns since 1970 on a GPU: the emulated one starts at the host's time when
// the program first reads it, and then runs in modelled time only.
uint64_t timer_epoch_ns() {
  static const uint64_t epoch = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  return epoch;
}

}  // namespace

int modelled_clock_mhz(const DeviceProps& device) {
  return device.clock_mhz > 0 ? device.clock_mhz : 1000;
}

bool in_emulated_thread() {
  return detail::t_worker != nullptr && detail::t_worker->current;
}

uint64_t clock_cycles(uint16_t line) {
  detail::Lane& lane = detail::current_lane();
  if (line) lane.line = line;
  if (lane.spin_step == 0) {  // the first read since the thread last did something else
    lane.spin_step = kClockReadCycles;
    lane.spin_from = lane.cycles;
  } else {  // nothing but clock reads since: a spin, whose steps grow with its length
    lane.spin_step =
        std::clamp((lane.cycles - lane.spin_from) / kSpinGrowth, lane.spin_step, kMaxSpinStep);
  }
  lane.cycles += lane.spin_step;
  return lane.cycles;
}

uint64_t globaltimer_ns(uint16_t line) {
  const uint64_t cycles = clock_cycles(line);
  return timer_epoch_ns() + cycles * 1000 / uint64_t(detail::t_worker->launch->clock_mhz);
}

void nanosleep_for(uint64_t ns, uint16_t line) {
  detail::Lane& lane = detail::current_lane();
  // Rounded up, so that %globaltimer moves on by at least `ns` (a GPU may sleep up to twice as
  // long; the emulator sleeps the least it may).
  const uint64_t mhz = uint64_t(detail::t_worker->launch->clock_mhz);
  lane.cycles += (ns * mhz + 999) / 1000;
  // A sleeping thread lets others run: the flag it waits for may be theirs to set.
  step_plain(line, Op::None);
}

}  // namespace coop::emu

namespace coop::emu::detail {

void start_launch_clock(LaunchState& L, uint32_t sm_count, int clock_mhz) {
  L.clock_mhz = clock_mhz;
  L.sm_count = std::max(1u, sm_count);
  L.sm_cycles = std::make_unique<std::atomic<uint64_t>[]>(L.sm_count);
  const uint64_t start = g_device_cycles.load(std::memory_order_relaxed);
  L.start_cycles = start;
  for (uint32_t s = 0; s < L.sm_count; ++s) L.sm_cycles[s].store(start, std::memory_order_relaxed);
}

void finish_launch_clock(LaunchState& L) {
  for (uint32_t s = 0; s < L.sm_count; ++s)
    raise(g_device_cycles, L.sm_cycles[s].load(std::memory_order_relaxed));
}

void start_block_clock(LaunchState& L, Block& block) {
  const uint64_t start =
      L.sm_cycles[block.lanes.front().info.sm % L.sm_count].load(std::memory_order_relaxed);
  for (Lane& lane : block.lanes) lane.cycles = start;
}

void finish_block_clock(LaunchState& L, const Block& block) {
  uint64_t latest = 0;
  for (const Lane& lane : block.lanes) latest = std::max(latest, lane.cycles);
  raise(L.sm_cycles[block.lanes.front().info.sm % L.sm_count], latest);
  raise(L.latest_cycles, latest);
  L.blocks_done.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace coop::emu::detail
