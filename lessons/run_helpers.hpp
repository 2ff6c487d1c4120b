// Small helpers lesson runs share: device copies of host data, the trace-completeness check, and
// compact text for lists of ids in results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lessons/lesson.hpp"

namespace coop::lessons {

// A new device array named `name` holding a copy of `host`.
template <class T>
Result<DeviceArray<T>> device_copy(Executor& exec, const std::vector<T>& host, std::string name) {
  auto a = DeviceArray<T>::create(exec, host.size(), std::move(name));
  if (!a) return a.status();
  if (Status s = a->upload(host); !s) return s;
  return a;
}

// "every event recorded": no launch of the run dropped events for lack of trace capacity.
Check every_event_recorded(const std::vector<Trace>& launches);

// "0-31, 64, 96-127" for ids in the given order (runs of consecutive ids fold), showing at most
// `max_runs` runs and then how many ids were left out; "none" for an empty list.
std::string describe_ids(const std::vector<uint32_t>& ids, size_t max_runs = 8);

}  // namespace coop::lessons
