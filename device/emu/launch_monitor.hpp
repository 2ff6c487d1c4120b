// Watches a running launch from its own OS thread, for a caller that must say, when a launch
// runs too long, whether its threads were still making progress or none had moved: a thread in
// an endless loop between step points never hands control back to the scheduler, so only another
// OS thread can see it. Started by emulate() when EmuOptions::progress is set.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "device/emu/scheduler_state.hpp"

namespace coop::emu::detail {

// How long no scheduler step may pass before the launch counts as "no thread moved".
inline constexpr double kStillSeconds = 1.0;

// The words a progress report or the watchdog gives for how far a launch got.
std::string launch_progress_words(const LaunchState& launch, double seconds);

class LaunchMonitor {
 public:
  // Samples the workers every `every` seconds once the launch has run that long, and hands
  // EmuOptions::progress a sentence that starts "still making progress" or "no thread moved".
  LaunchMonitor(const LaunchState& launch, const std::vector<std::unique_ptr<Worker>>& workers);
  ~LaunchMonitor();
  LaunchMonitor(const LaunchMonitor&) = delete;
  LaunchMonitor& operator=(const LaunchMonitor&) = delete;

 private:
  void watch();
  std::string stuck_thread();
  std::string seen_at() const;

  const LaunchState& launch_;
  const std::vector<std::unique_ptr<Worker>>& workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace coop::emu::detail
