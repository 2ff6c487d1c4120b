// What the benchmarks measure time with: one clock, seconds since a moment, the median of runs.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
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

// The milliseconds a program printed on its "Average time = X ms" line (NVIDIA's samples' way of
// reporting their own timed loop), or -1 when it printed none.
inline double average_time_ms(const std::string& printed) {
  const std::string key = "Average time = ";
  const size_t at = printed.find(key);
  if (at == std::string::npos) return -1;
  char* end = nullptr;
  const double ms = std::strtod(printed.c_str() + at + key.size(), &end);
  return end != printed.c_str() + at + key.size() && ms >= 0 ? ms : -1;
}

}  // namespace coop::app
