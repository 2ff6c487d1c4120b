#include "device/trace/trace.hpp"

#include <algorithm>
#include <ctime>

namespace coop {

const char* to_string(Backend backend) { return backend == Backend::Gpu ? "gpu" : "emu"; }

void finalize_trace(Trace& trace) {
  EventVector& ev = trace.events;
  if (!std::is_sorted(ev.begin(), ev.end(),
                      [](const Event& a, const Event& b) { return a.sequence < b.sequence; }))
    std::stable_sort(ev.begin(), ev.end(),
                     [](const Event& a, const Event& b) { return a.sequence < b.sequence; });
  // Phase counters per (thread, group kind, size, id): a thread's k-th barrier on one group (the
  // size tells a 16-thread tile 0 from a 32-thread tile 0). A
  // split barrier's wait belongs to the phase of the arrive that preceded it on that thread.
  // Threads touch few groups, so each keeps a short list searched linearly.
  struct Counter {
    uint64_t group;
    uint32_t size;
    uint32_t count;
  };
  std::vector<std::vector<Counter>> counters(trace.header.launch.total_threads());
  for (Event& e : ev) {
    const bool arrive = e.kind == EventKind::Barrier || e.kind == EventKind::BarrierArrive;
    if (!arrive && e.kind != EventKind::BarrierWait) continue;
    if (e.thread >= counters.size()) continue;  // rejected by the loader; never trusted here
    const uint64_t group = (uint64_t(e.group_kind) << 32) | e.group_id;
    std::vector<Counter>& list = counters[e.thread];
    auto it = std::find_if(list.begin(), list.end(), [&](const Counter& c) {
      return c.group == group && c.size == e.group_size;
    });
    if (it == list.end()) it = list.insert(list.end(), Counter{group, e.group_size, 0});
    if (arrive) ++it->count;
    e.extra = it->count;
  }
}

std::string utc_now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace coop
