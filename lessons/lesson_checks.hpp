// Helpers the lessons share for their launch rules and checks: the 1-D launch most kernels
// assume, comparing every thread's value with a CPU reference, counting events, and turning the
// emulator's report of a hazard into a check.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.hpp"

namespace coop::lessons {

// The launch rule most lessons open their validate() with: a 1-D grid of 1-D blocks, because
// their kernels index by threadIdx.x and blockIdx.x alone. The error names `lesson` and the shape.
Status require_1d_launch(const LaunchConfig& c, std::string_view lesson);

// "n of n" check: ok(i) must hold for every i < n; a failure names the first bad item with
// describe(i) (e.g. "thread 17: rank 3, expected 4").
template <class Ok, class Describe>
Check all_of(std::string name, size_t n, Ok ok, Describe describe) {
  size_t good = 0, first_bad = n;
  for (size_t i = 0; i < n; ++i) {
    if (ok(i))
      ++good;
    else if (first_bad == n)
      first_bad = i;
  }
  std::string got = std::to_string(good) + " of " + std::to_string(n);
  if (first_bad < n) got += " (first difference: " + describe(first_bad) + ")";
  return make_check(std::move(name), std::to_string(n) + " of " + std::to_string(n), got,
                    good == n);
}

// Events of a trace that satisfy `pred`.
template <class Pred>
size_t count_events(const Trace& trace, Pred pred) {
  size_t n = 0;
  for (const Event& e : trace.events) n += pred(e) ? 1 : 0;
  return n;
}

// The first line (1-based) of `source` holding `snippet`, or 0.
int line_of(std::string_view source, std::string_view snippet);

// A hazard variant must never reach a GPU: on one, the error to return before launching.
// `what` says what goes wrong ("deadlocks", "reads a value too early", ...).
Status refuse_hazard_on_gpu(const Executor& exec, const std::string& variant,
                            const std::string& what);

// The emulator stopped a hazard launch with a report: the check passes when the launch failed
// and the report holds every fragment (e.g. "__syncthreads() at line 31", "threads 32-63").
Check hazard_reported(std::string name, const Status& launched,
                      const std::vector<std::string>& fragments);

// "threads 0-47" as the emulator's reports write a range of threads.
std::string thread_range(size_t first, size_t last);

// The record every lesson ends with: no event was lost to the trace capacity.
Check nothing_dropped(const std::vector<Trace>& launches);

// The name of time_order_check's check, for finding it in a run.
inline constexpr const char* kTimeOrderCheck =
    "no thread left a barrier before the last one arrived";

// The SM schedule the views draw from a GPU trace's block records (record_block_start/finish)
// is what happened: no SM is drawn holding more blocks at once than `limit` (the occupancy
// model's blocks per SM), each block counted until its last block-wide barrier released it (its
// warps may leave after that, freeing slots for the next block), and each block's finish is after
// its start.
Check trace_schedule_within(const Trace& trace, int limit);

// Every run's recorded times keep the hardware's order (device/trace/time_order.hpp): no
// departure before the last arrival of its barrier, each thread's events in order. run_lesson
// adds it to every lesson run, on both backends.
Check time_order_check(const std::vector<Trace>& launches);

}  // namespace coop::lessons
