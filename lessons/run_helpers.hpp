// Helpers for a lesson's run(): device arrays filled from host vectors, GPU-only measurements
// (untraced launches timed by the executor, and the skipped check a lesson shows on the emulator,
// where wall-clock numbers would mean nothing), and counting what a trace recorded.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "device/launch/executor.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_protocol/lesson_ids.h"

namespace coop::lessons {

// A device array holding a copy of `host`.
template <class T>
Result<DeviceArray<T>> upload_array(Executor& exec, const std::vector<T>& host, std::string name) {
  auto a = DeviceArray<T>::create(exec, host.size(), std::move(name));
  if (!a) return a;
  if (Status s = a->upload(host); !s) return s;
  return a;
}

// A device array of `count` zeros.
template <class T>
Result<DeviceArray<T>> zero_array(Executor& exec, size_t count, std::string name) {
  auto a = DeviceArray<T>::create(exec, count, std::move(name));
  if (!a) return a;
  if (Status s = a->zero(); !s) return s;
  return a;
}

// The first failed status of several (e.g. of allocations made together), or success.
inline Status first_error(std::initializer_list<Status> statuses) {
  for (const Status& s : statuses)
    if (!s.ok()) return s;
  return {};
}

// "7 of 8": how many items passed, for checks' expected and got fields.
inline std::string count_of(size_t good, size_t all) {
  return std::to_string(good) + " of " + std::to_string(all);
}

// Turns tracing off for its lifetime: GPU-only measurements time the kernel, not the recorder, and
// their traces never join a lesson run's launches (the emulator makes no such launches).
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

// Best kernel time in milliseconds over `repeats` untraced launches, after one warm-up launch
// (the first launch of a kernel also pays for loading its module). before_each() runs before
// every launch (e.g. to zero a counter the kernel accumulates into). Tracing is restored after.
template <class BeforeEach, class... Params, class... Args>
Result<double> best_untraced_ms_with(Executor& exec, BeforeEach&& before_each,
                                     const Kernel<Params...>& kernel, const LaunchConfig& config,
                                     int repeats, Args... args) {
  UntracedScope untraced(exec);
  double best = -1;
  Status status;
  for (int r = 0; r <= repeats && status.ok(); ++r) {
    status = before_each();
    if (!status.ok()) break;
    Trace trace;
    status = exec.launch(kernel, config, trace, args...);
    if (status.ok() && r > 0 && (best < 0 || trace.header.kernel_ms < best))
      best = trace.header.kernel_ms;
  }
  if (!status) return status;
  return best;
}

template <class... Params, class... Args>
Result<double> best_untraced_ms(Executor& exec, const Kernel<Params...>& kernel,
                                const LaunchConfig& config, int repeats, Args... args) {
  return best_untraced_ms_with(
      exec, [] { return Status(); }, kernel, config, repeats, args...);
}

// The check a timing claim becomes on the emulator: skipped, with the reason.
inline Check measured_on_gpu_only(std::string name) {
  Check c;
  c.name = std::move(name);
  c.expected = "a run on a GPU";
  c.got = "skipped: measured on a GPU only (the emulator's clock counts steps, not nanoseconds)";
  c.skipped = true;
  return c;
}

// Events of one kind in a trace (e.g. atomics issued, collectives called).
inline size_t count_events(const Trace& t, EventKind kind) {
  size_t n = 0;
  for (const Event& e : t.events) n += e.kind == kind;
  return n;
}

// "0-31, 64, 96-127": lesson_ids.h's, which lesson programs print with too.
using ::describe_ids;

}  // namespace coop::lessons
