// Helpers for the untraced launches lessons make on a GPU only: timings and repeated experiments
// (litmus tests). The trace is switched off for them, so they measure the kernel, not the recorder,
// and their traces never join a lesson run's launches (the emulator makes no such launches).
#pragma once

#include <algorithm>
#include <limits>

#include "device/launch/executor.hpp"

namespace coop::lessons {

// Turns tracing off for its lifetime.
class UntracedScope {
 public:
  explicit UntracedScope(Executor& exec) : exec_(exec), saved_(exec.options().trace) {
    exec_.options().trace = false;
  }
  ~UntracedScope() { exec_.options().trace = saved_; }
  UntracedScope(const UntracedScope&) = delete;
  UntracedScope& operator=(const UntracedScope&) = delete;

 private:
  Executor& exec_;
  bool saved_;
};

// The fastest of `repeats` untraced launches, in milliseconds of kernel time.
template <class... Params, class... Args>
Result<double> best_kernel_ms(Executor& exec, int repeats, const Kernel<Params...>& kernel,
                              const LaunchConfig& config, Args... args) {
  UntracedScope untraced(exec);
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    Trace trace;
    if (Status s = exec.launch(kernel, config, trace, args...); !s) return s;
    best = std::min(best, trace.header.kernel_ms);
  }
  return best;
}

}  // namespace coop::lessons
