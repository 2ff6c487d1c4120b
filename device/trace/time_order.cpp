#include "device/trace/time_order.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "device/trace/names.hpp"

namespace coop {
namespace {

constexpr uint32_t kWhole = ~0u;  // a scope that spans blocks (grid, cluster) or warps (block)

bool departs(EventKind k) { return records_departure(k); }
bool arrives(EventKind k) {
  return k == EventKind::Barrier || k == EventKind::BarrierArrive || k == EventKind::CopyWait;
}
bool barrier_like(EventKind k) {
  return departs(k) || arrives(k);
}

// Group ids are unique per launch (grid, cluster), per block (block, tiles), or per warp (lane
// masks, labels, binary and stride residues): an instance is named within that scope. Groups of
// one warp that share kind, id and size (two labeled partitions with the same label, say) are
// checked as one instance, which is stricter than needed and still holds on the hardware, where
// a warp's lanes leave a warp barrier together.
struct InstanceKey {
  uint32_t block = kWhole, warp = kWhole, id = 0, size = 0, phase = 0;
  GroupKind kind = GroupKind::None;
  bool copy = false;  // memcpy_async waits are numbered apart from barrier phases
  bool operator==(const InstanceKey&) const = default;
};

struct KeyHash {
  size_t operator()(const InstanceKey& k) const {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (uint64_t v : {uint64_t(k.block), uint64_t(k.warp), uint64_t(k.id), uint64_t(k.size),
                       uint64_t(k.phase), uint64_t(k.kind) << 1 | uint64_t(k.copy)})
      h = (h ^ v) * 0x100000001B3ull;
    return size_t(h);
  }
};

struct Instance {
  uint64_t latest_arrival = 0, earliest_departure = ~0ull;
  bool arrived = false, departed = false;
  uint32_t line = 0;
};

InstanceKey scope_of(const Event& e, uint32_t block_threads) {
  InstanceKey k;
  k.kind = e.group_kind;
  k.id = e.group_id;
  k.size = e.group_size;
  switch (e.group_kind) {
    case GroupKind::Grid:
    case GroupKind::Cluster:
      break;
    case GroupKind::Block:
    case GroupKind::Tile:
      k.block = e.thread / block_threads;
      break;
    case GroupKind::Thread:
      k.block = e.thread / block_threads;
      k.warp = e.thread % block_threads;
      break;
    default:  // groups inside one warp
      k.block = e.thread / block_threads;
      k.warp = e.thread % block_threads / 32;
      break;
  }
  return k;
}

std::string describe(const InstanceKey& k, const Instance& in, const char* unit) {
  // "grid", "cluster 2", "block 5", "tile 3 of block 5", "coalesced 255 of block 0, warp 1"
  std::string s(name_of(k.kind));
  if (k.kind != GroupKind::Grid) s += " " + std::to_string(k.id);
  if (k.block != kWhole && k.kind != GroupKind::Block) s += " of block " + std::to_string(k.block);
  if (k.warp != kWhole && k.kind != GroupKind::Thread) s += ", warp " + std::to_string(k.warp);
  s += k.copy ? ", memcpy_async wait " : ", phase ";
  s += std::to_string(k.phase) + " at line " + std::to_string(in.line) + ": a thread left " +
       std::to_string(in.latest_arrival - in.earliest_departure) + " " + unit +
       " before the last one arrived";
  return s;
}

}  // namespace

std::string TimeOrderReport::summary() const {
  return std::to_string(early_departures) + " of " + std::to_string(instances) +
         " barrier instances with an early departure, " + std::to_string(out_of_order) + " of " +
         std::to_string(events) + " events out of their thread's order";
}

void merge(TimeOrderReport& a, const TimeOrderReport& b) {
  if (a.first_early.empty()) a.first_early = b.first_early;
  if (a.first_out_of_order.empty()) a.first_out_of_order = b.first_out_of_order;
  a.instances += b.instances;
  a.early_departures += b.early_departures;
  a.worst_early = std::max(a.worst_early, b.worst_early);
  a.events += b.events;
  a.out_of_order += b.out_of_order;
  a.worst_back = std::max(a.worst_back, b.worst_back);
}

TimeOrderReport check_time_order(const Trace& trace) {
  TimeOrderReport r;
  const char* unit = trace.header.backend == Backend::Gpu ? "ns" : "steps";
  const uint32_t block_threads = uint32_t(std::max<uint64_t>(1, trace.header.launch.block.count()));
  uint32_t max_thread = 0;
  for (const Event& e : trace.events) max_thread = std::max(max_thread, e.thread);
  // Per thread: the latest departure it has made, and the latest time of anything it recorded.
  std::vector<uint64_t> left(trace.events.empty() ? 0 : size_t(max_thread) + 1, 0);
  std::vector<uint64_t> latest(left.size(), 0);
  std::vector<bool> seen(left.size(), false);
  // memcpy_async waits carry no phase: each thread's k-th wait on a group is instance k.
  std::unordered_map<InstanceKey, uint32_t, KeyHash> copy_waits;
  std::unordered_map<InstanceKey, Instance, KeyHash> instances;

  // A modelled schedule's block records hold work units, not times: they say nothing of order.
  const bool skip_block_records = block_records_modelled(trace.header);
  for (const Event& e : trace.events) {
    const size_t t = e.thread;
    if (skip_block_records && (e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd))
      continue;
    ++r.events;
    // Order within the thread. Events recorded after work they enclose (invoke_one records
    // after its function ran) carry their start time, so only a barrier-like event must follow
    // everything earlier; every event must follow the barriers the thread already left.
    uint64_t back = 0;
    if (seen[t] && e.time < left[t]) back = left[t] - e.time;
    if (seen[t] && barrier_like(e.kind) && e.time < latest[t])
      back = std::max(back, latest[t] - e.time);
    if (back > 0) {
      if (r.out_of_order++ == 0)
        r.first_out_of_order = "thread " + std::to_string(t) + ": " + std::string(name_of(e.kind)) +
                               " at line " + std::to_string(e.line) + " is timed " +
                               std::to_string(back) + " " + unit +
                               " before something it did earlier";
      r.worst_back = std::max(r.worst_back, back);
    }
    seen[t] = true;
    latest[t] = std::max(latest[t], e.time);
    if (departs(e.kind)) {
      left[t] = std::max(left[t], e.b);
      latest[t] = std::max(latest[t], e.b);
    }
    if (!barrier_like(e.kind)) continue;

    InstanceKey key = scope_of(e, block_threads);
    if (e.kind == EventKind::CopyWait) {
      InstanceKey counter = key;
      counter.block = e.thread;  // per thread
      counter.warp = kWhole;
      key.copy = true;
      key.phase = ++copy_waits[counter];
    } else {
      key.phase = e.extra;
    }
    Instance& in = instances[key];
    if (in.line == 0) in.line = e.line;
    if (arrives(e.kind)) {
      in.latest_arrival = in.arrived ? std::max(in.latest_arrival, e.time) : e.time;
      in.arrived = true;
    }
    if (departs(e.kind)) {
      in.earliest_departure = std::min(in.earliest_departure, e.b);
      in.departed = true;
    }
  }

  r.instances = instances.size();
  // The first example reported is the earliest in the launch, so it does not depend on hashing.
  const InstanceKey* first_key = nullptr;
  const Instance* first = nullptr;
  for (const auto& [key, in] : instances) {
    if (!in.arrived || !in.departed || in.earliest_departure >= in.latest_arrival) continue;
    ++r.early_departures;
    r.worst_early = std::max(r.worst_early, in.latest_arrival - in.earliest_departure);
    if (!first || in.earliest_departure < first->earliest_departure) first = &in, first_key = &key;
  }
  if (first) r.first_early = describe(*first_key, *first, unit);
  return r;
}

}  // namespace coop
