#include "device/trace/trace.hpp"

#include <algorithm>
#include <ctime>
#include <unordered_map>

namespace coop {

const char* to_string(Backend backend) { return backend == Backend::Gpu ? "gpu" : "emu"; }

void finalize_trace(Trace& trace) {
  EventVector& ev = trace.events;
  // Phase counters per (thread, group kind, size, id): a thread's k-th barrier on one group (the
  // size tells a 16-thread tile 0 from a 32-thread tile 0). A split barrier's wait belongs to the
  // phase of the arrive that preceded it on that thread.
  //
  // Most threads meet one or two groups: each thread gets two inline counters (memory grows with
  // the threads that appear, not with what a header claims), and rarer extra groups go to a map.
  struct Counter {
    uint64_t group = ~0ull;
    uint32_t size = 0;
    uint32_t count = 0;
  };
  struct Inline {
    Counter c[2];
  };
  std::vector<Inline> counters;
  std::unordered_map<uint64_t, std::vector<Counter>> overflow;
  // Numbers the phases in the events' present order; false (and nothing trustworthy) if that is
  // not sequence order. One pass: a large launch's events far outgrow the caches.
  const auto count_phases = [&] {
    counters.clear();
    overflow.clear();
    for (size_t i = 0; i < ev.size(); ++i) {
      Event& e = ev[i];
      if (i > 0 && e.sequence < ev[i - 1].sequence) return false;
      const bool arrive = e.kind == EventKind::Barrier || e.kind == EventKind::BarrierArrive;
      if (!arrive && e.kind != EventKind::BarrierWait) continue;
      if (e.thread >= counters.size())
        counters.resize(std::max<size_t>(size_t(e.thread) + 1, counters.size() * 2));
      const uint64_t group = (uint64_t(e.group_kind) << 32) | e.group_id;
      auto same = [&](const Counter& c) { return c.group == group && c.size == e.group_size; };
      Counter* counter = nullptr;
      for (Counter& c : counters[e.thread].c) {
        if (same(c)) counter = &c;
        else if (!counter && c.group == ~0ull) {
          c = Counter{group, e.group_size, 0};
          counter = &c;
        }
        if (counter) break;
      }
      if (!counter) {
        std::vector<Counter>& list = overflow[e.thread];
        auto it = std::find_if(list.begin(), list.end(), same);
        counter = it != list.end() ? &*it : &list.emplace_back(Counter{group, e.group_size, 0});
      }
      if (arrive) ++counter->count;
      e.extra = counter->count;
    }
    return true;
  };
  if (count_phases()) return;
  std::stable_sort(ev.begin(), ev.end(),
                   [](const Event& a, const Event& b) { return a.sequence < b.sequence; });
  count_phases();
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
