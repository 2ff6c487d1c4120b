// The emulator's modelled time (device/emu/modelled_time.hpp): clock reads, %globaltimer and
// __nanosleep advance in SM cycles at the emulated device's clock rate, not in host time, so that
// a kernel waiting 10 ms of GPU time ends in far less than a second; and a launch that runs past
// its time limit says it was still making progress.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>

#include "device/emu/emu_api.hpp"
#include "device/emu/emulator.hpp"
#include "device/emu/modelled_time.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::emu {
namespace {

EmuLaunch launch_of(Dim3 grid, Dim3 block, std::function<void()> body) {
  EmuLaunch l;
  l.config.grid = grid;
  l.config.block = block;
  l.device = default_emulated_device();
  l.body = std::move(body);
  l.trace = false;
  return l;
}

uint64_t cycles_in(double seconds) {
  return uint64_t(seconds * modelled_clock_mhz(default_emulated_device()) * 1e6);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ModelledTime, ASpinOnClock64For10MsOfGpuTimeEndsWellUnderASecond) {
  const uint64_t wait = cycles_in(0.010);
  std::mutex lock;
  std::vector<uint64_t> waited;
  Trace trace;
  const auto start = std::chrono::steady_clock::now();
  const Status s = emulate(launch_of({8, 1, 1}, {128, 1, 1},
                                     [&] {
                                       const uint64_t from = clock_cycles(__LINE__);
                                       uint64_t now = from;
                                       while (now - from < wait) now = clock_cycles(__LINE__);
                                       std::lock_guard<std::mutex> hold(lock);
                                       waited.push_back(now - from);
                                     }),
                           EmuOptions{}, trace);
  const double wall = seconds_since(start);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_LT(wall, 1.0) << "1024 threads each waiting 10 ms of GPU time";
  ASSERT_EQ(waited.size(), 1024u);
  for (uint64_t w : waited) {
    EXPECT_GE(w, wait);
    EXPECT_LE(w, wait + wait / 16) << "a spin ends soon after its deadline";
  }
}

TEST(ModelledTime, ClockReadsOfAThreadOnlyGrowAcrossStepsSleepsAndLaunches) {
  std::mutex lock;
  std::vector<std::vector<uint64_t>> by_thread(64);
  auto body = [&] {
    std::vector<uint64_t> seen;
    for (int i = 0; i < 50; ++i) {
      seen.push_back(clock_cycles(__LINE__));
      if (i % 3 == 0) step_plain(__LINE__, Op::None);
      if (i % 7 == 0) nanosleep_for(100, __LINE__);
    }
    std::lock_guard<std::mutex> hold(lock);
    auto& mine = by_thread[this_thread().global_id];
    mine.insert(mine.end(), seen.begin(), seen.end());
  };
  Trace trace;
  for (int launch = 0; launch < 2; ++launch)
    ASSERT_TRUE(emulate(launch_of({2, 1, 1}, {32, 1, 1}, body), EmuOptions{}, trace).ok());
  for (const auto& seen : by_thread) {
    ASSERT_EQ(seen.size(), 100u);
    for (size_t i = 1; i < seen.size(); ++i) EXPECT_LT(seen[i - 1], seen[i]) << "read " << i;
  }
}

TEST(ModelledTime, NanosleepMovesTheGlobalTimerOnByAtLeastItsArgument) {
  const std::vector<uint64_t> sleeps = {1, 7, 100, 999, 1000, 123457, 1000000};
  std::vector<uint64_t> slept(sleeps.size());
  std::vector<uint64_t> cycles(sleeps.size());
  Trace trace;
  const Status s = emulate(launch_of({1, 1, 1}, {1, 1, 1},
                                     [&] {
                                       for (size_t i = 0; i < sleeps.size(); ++i) {
                                         const uint64_t c0 = clock_cycles(__LINE__);
                                         const uint64_t t0 = globaltimer_ns(__LINE__);
                                         nanosleep_for(sleeps[i], __LINE__);
                                         const uint64_t t1 = globaltimer_ns(__LINE__);
                                         slept[i] = t1 - t0;
                                         cycles[i] = clock_cycles(__LINE__) - c0;
                                       }
                                     }),
                           EmuOptions{}, trace);
  ASSERT_TRUE(s.ok()) << s.message();
  const double mhz = modelled_clock_mhz(default_emulated_device());
  for (size_t i = 0; i < sleeps.size(); ++i) {
    EXPECT_GE(slept[i], sleeps[i]) << "__nanosleep(" << sleeps[i] << ")";
    // clock64 and %globaltimer count the same time: ns = cycles / clock rate.
    EXPECT_NEAR(double(cycles[i]) * 1000.0 / mhz, double(slept[i]), 1000.0 * 100 / mhz + 2)
        << "__nanosleep(" << sleeps[i] << ")";
  }
}

TEST(ModelledTime, TheClockRateIsTheDevicesOrAGigahertz) {
  DeviceProps d = default_emulated_device();
  EXPECT_EQ(modelled_clock_mhz(d), d.clock_mhz > 0 ? d.clock_mhz : 1000);
  d.clock_mhz = 0;
  EXPECT_EQ(modelled_clock_mhz(d), 1000);
}

// Threads that keep stepping (here sleeping) past the time limit: the watchdog says they were
// still making progress and how far they got, and the monitor reported the same while it ran.
TEST(ModelledTime, ALaunchPastItsTimeLimitSaysItWasStillMakingProgress) {
  std::atomic<int> reports{0};
  std::string last;
  std::mutex lock;
  EmuOptions o;
  o.watchdog_seconds = 1;
  o.progress = [&](const std::string& words) {
    std::lock_guard<std::mutex> hold(lock);
    last = words;
    ++reports;
  };
  Trace trace;
  const Status s = emulate(launch_of({4, 1, 1}, {32, 1, 1},
                                     [] {
                                       if (this_thread().block_rank == 0) return;
                                       for (;;) nanosleep_for(1000, __LINE__);
                                     }),
                           o, trace);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("while still making progress (1 of 4 blocks finished"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("--timeout"), std::string::npos) << s.message();
  EXPECT_GE(reports.load(), 2);
  std::lock_guard<std::mutex> hold(lock);
  EXPECT_EQ(last.rfind("still making progress: 1 of 4 blocks finished", 0), 0u) << last;
}

}  // namespace
}  // namespace coop::emu
