// What the benchmarks measure time with: one clock, seconds since a moment, the median of runs.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace coop::app {

using BenchClock = std::chrono::steady_clock;

inline double seconds_since(BenchClock::time_point t0) {
  return std::chrono::duration<double>(BenchClock::now() - t0).count();
}

// The middle run (the upper middle of an even count): robust to one slow run on a shared machine.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace coop::app
