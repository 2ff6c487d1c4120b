#include "lessons/race_chain.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "device/trace/instrumented_flag.hpp"
#include "device/trace/value.hpp"

namespace coop::lessons {
namespace {

struct Access {
  int value = 0;
  uint32_t sequence = 0;
  bool seen = false;
};

struct ThreadAccesses {
  Access load, store;
};

}  // namespace

RaceReport analyse_race(const Trace& trace, int final_value) {
  RaceReport report;
  std::map<uint32_t, ThreadAccesses> threads;
  for (const Event& e : trace.events) {
    if (e.kind != EventKind::Load && e.kind != EventKind::Store) continue;
    // The chain is made of the counter's traced reads and writes; a run that records every load
    // and store also holds the reads of each thread's input, which are not part of it.
    if (e.flags & kFlagInstrumented) continue;
    Access& a = e.kind == EventKind::Load ? threads[e.thread].load : threads[e.thread].store;
    a.value = from_bits<int>(e.kind == EventKind::Load ? e.b : e.a);
    a.sequence = e.sequence;
    a.seen = true;
  }
  // Stores by the value they wrote; a load of v read one of the stores of v.
  std::unordered_multimap<int, uint32_t> stores_of;
  for (const auto& [t, a] : threads) {
    if (!a.load.seen || !a.store.seen) {
      report.problem =
          "thread " + std::to_string(t) + " has a store without a load, or the reverse";
      return report;
    }
    if (a.store.value <= a.load.value) {
      report.problem = "thread " + std::to_string(t) + " stored " + std::to_string(a.store.value) +
                       " after reading " + std::to_string(a.load.value) +
                       ": its share is not positive";
      return report;
    }
    stores_of.emplace(a.store.value, t);
  }
  // The store a value came from: the latest store of that value recorded before `before`, or
  // failing that (recorder order on a GPU is approximate) the earliest one. -1: the initial 0.
  constexpr int64_t kInitial = -1, kNowhere = -2;
  auto source_of = [&](int value, uint32_t before, uint32_t reader) -> int64_t {
    if (value == 0) return kInitial;
    int64_t best = kNowhere, earliest = kNowhere;
    auto [lo, hi] = stores_of.equal_range(value);
    for (auto it = lo; it != hi; ++it) {
      const uint32_t t = it->second;
      if (t == reader) continue;
      const uint32_t seq = threads[t].store.sequence;
      if (seq < before && (best == kNowhere || seq > threads[uint32_t(best)].store.sequence))
        best = t;
      if (earliest == kNowhere || seq < threads[uint32_t(earliest)].store.sequence) earliest = t;
    }
    return best != kNowhere ? best : earliest;
  };
  std::map<uint32_t, int64_t> read_from;
  std::map<uint32_t, std::vector<uint32_t>> readers;
  for (const auto& [t, a] : threads) {
    const int64_t src = source_of(a.load.value, a.load.sequence, t);
    if (src == kNowhere) {
      report.problem = "thread " + std::to_string(t) + " read " + std::to_string(a.load.value) +
                       ", a value no thread wrote";
      return report;
    }
    read_from[t] = src;
    if (src >= 0) readers[uint32_t(src)].push_back(t);
  }
  // Follow the final value back to 0: each link is a store and the store its thread had read.
  int64_t at = source_of(final_value, ~0u, ~0u);
  if (final_value == 0 || at < 0) {
    report.problem = "no thread stored the final value " + std::to_string(final_value);
    return report;
  }
  while (at >= 0 && report.kept.size() <= threads.size()) {
    report.kept.push_back(uint32_t(at));
    at = read_from[uint32_t(at)];
  }
  std::reverse(report.kept.begin(), report.kept.end());
  const std::set<uint32_t> kept(report.kept.begin(), report.kept.end());
  for (const auto& [t, a] : threads) {
    if (kept.count(t)) continue;
    (readers[t].empty() ? report.lost_unread : report.lost_later).push_back(t);
    report.missing += int64_t(a.store.value) - a.load.value;
  }
  return report;
}

}  // namespace coop::lessons
