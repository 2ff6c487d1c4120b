// [SECTION] The launch monitor (launch_monitor.hpp): how far a long launch got, and which thread
// stopped moving where.
#include "device/emu/launch_monitor.hpp"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "device/emu/memory_checks.hpp"

namespace coop::emu::detail {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g ms", ms);
  return text;
}

}  // namespace

std::string launch_progress_words(const LaunchState& L, double seconds) {
  std::ostringstream os;
  const uint64_t done = L.blocks_done.load(std::memory_order_relaxed);
  os << done << " of " << L.total_blocks << " blocks finished in " << int(seconds) << " s";
  const uint64_t latest = L.latest_cycles.load(std::memory_order_relaxed);
  if (done > 0 && latest > L.start_cycles)
    os << ", " << milliseconds(double(latest - L.start_cycles) / (L.clock_mhz * 1000.0))
       << " of modelled GPU time";
  return os.str();
}

LaunchMonitor::LaunchMonitor(const LaunchState& launch,
                             const std::vector<std::unique_ptr<Worker>>& workers)
    : launch_(launch), workers_(workers), thread_([this] { watch(); }) {}

LaunchMonitor::~LaunchMonitor() {
  {
    std::lock_guard<std::mutex> hold(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

// The thread that holds its worker without reaching a step point, and where it is: the line of
// its last checked load or store (a loop on memory), else of its last step point.
std::string LaunchMonitor::stuck_thread() {
  std::ostringstream os;
  for (const auto& w : workers_) {
    const Lane* lane = w->running.load(std::memory_order_relaxed);
    if (lane == nullptr) continue;
    os << "thread (" << lane->info.thread_idx.str() << ") of block (" << lane->info.block_idx.str()
       << ") runs ";
    uint16_t line = 0;
    const uint32_t code = w->last_code.load(std::memory_order_relaxed);
    if (code) code_place(code, &line);
    if (line != 0) {
      os << "at line " << line;
    } else if (const uint16_t seen = __atomic_load_n(&lane->line, __ATOMIC_RELAXED); seen) {
      os << "past line " << seen;
    } else {
      os << "from its start";
    }
    os << " without reaching a barrier, an atomic, a clock read or any other point the emulator "
          "sees (an endless loop, or a wait on memory no other thread will change)";
    break;
  }
  return os.str();
}

// Where a thread was last seen stepping: with threads spinning on a value nobody changes, that
// is the spin's line.
std::string LaunchMonitor::seen_at() const {
  for (const auto& w : workers_) {
    const uint64_t seen = w->last_resumed.load(std::memory_order_relaxed);
    const auto line = uint16_t(seen & 0xffff);
    if (line == 0) continue;
    const LaunchConfig& c = launch_.request->config;
    const uint64_t id = seen >> 16, threads = c.block.count();
    const uint64_t t = id % threads, b = id / threads;
    const Dim3 thread{uint32_t(t % c.block.x), uint32_t(t / c.block.x % c.block.y),
                      uint32_t(t / (uint64_t(c.block.x) * c.block.y))};
    const Dim3 block{uint32_t(b % c.grid.x), uint32_t(b / c.grid.x % c.grid.y),
                     uint32_t(b / (uint64_t(c.grid.x) * c.grid.y))};
    return "; thread (" + thread.str() + ") of block (" + block.str() + ") was at line " +
           std::to_string(line);
  }
  return "";
}

void LaunchMonitor::watch() {
  constexpr auto kEvery = std::chrono::milliseconds(250);
  uint64_t last_steps = ~uint64_t(0);
  Clock::time_point still_since = Clock::now();
  std::string stuck;  // said once per stop: finding the line runs addr2line
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kEvery, [this] { return done_; })) {
    uint64_t steps = 0;
    for (const auto& w : workers_) steps += w->steps.load(std::memory_order_relaxed);
    const Clock::time_point now = Clock::now();
    if (steps != last_steps) {
      last_steps = steps;
      still_since = now;
      stuck.clear();
    }
    const double still = seconds_between(still_since, now);
    const std::string so_far = launch_progress_words(launch_, seconds_between(launch_.start, now));
    if (still >= kStillSeconds) {
      if (stuck.empty()) stuck = stuck_thread();
      launch_.options->progress("no thread moved for " + std::to_string(int(still)) + " s" +
                                (stuck.empty() ? "" : ": " + stuck) + "; " + so_far);
    } else {
      launch_.options->progress("still making progress: " + so_far + seen_at());
    }
  }
}

}  // namespace coop::emu::detail
