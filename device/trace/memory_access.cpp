#include "device/trace/memory_access.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace coop {
namespace {

constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kBanks = 32;
constexpr uint32_t kBankBytes = 4;
constexpr uint32_t kSectorBytes = 32;
constexpr uint32_t kPhaseBytes = 128;  // what the banks deliver in one pass

// Lanes per phase for a request whose widest lane access is `bytes`.
uint32_t lanes_per_phase(uint32_t bytes) {
  return std::clamp<uint32_t>(kPhaseBytes / std::max<uint32_t>(bytes, kBankBytes), 1, kWarpSize);
}

// Passes the banks need for the lanes of one phase: the most distinct words any one bank serves.
uint32_t phase_ways(std::span<const LaneAccess> lanes, uint32_t first_lane, uint32_t last_lane) {
  std::array<std::set<uint64_t>, kBanks> words;
  for (const LaneAccess& a : lanes) {
    if (a.lane < first_lane || a.lane > last_lane || a.bytes == 0) continue;
    for (uint64_t w = a.address / kBankBytes; w <= (a.address + a.bytes - 1) / kBankBytes; ++w)
      words[w % kBanks].insert(w);
  }
  size_t ways = 0;
  for (const auto& bank : words) ways = std::max(ways, bank.size());
  return uint32_t(ways);
}

template <class Combine>
uint32_t over_phases(std::span<const LaneAccess> lanes, Combine combine) {
  uint32_t widest = 0;
  for (const LaneAccess& a : lanes) widest = std::max(widest, a.bytes);
  const uint32_t per_phase = lanes_per_phase(widest);
  uint32_t result = 0;
  for (uint32_t first = 0; first < kWarpSize; first += per_phase)
    result = combine(result, phase_ways(lanes, first, first + per_phase - 1));
  return result;
}

// Phases a request is served in: one pass each when nothing conflicts.
uint32_t phases_of(std::span<const LaneAccess> lanes) {
  return over_phases(lanes, [](uint32_t a, uint32_t ways) { return a + (ways > 0 ? 1 : 0); });
}

}  // namespace

uint32_t access_bytes(const Event& e) {
  if (e.flags & kFlagInstrumented) return e.extra;
  // A traced(...) access records its value's type, not its size.
  const ValueType type = e.value_type;
  const bool wide = type == ValueType::I64 || type == ValueType::U64 || type == ValueType::F64;
  return wide ? 8 : 4;
}

const char* to_string(MemorySpace space) {
  return space == MemorySpace::Shared ? "shared" : "global";
}

uint32_t sectors_touched(std::span<const LaneAccess> lanes) {
  std::set<uint64_t> sectors;
  for (const LaneAccess& a : lanes)
    if (a.bytes)
      for (uint64_t s = a.address / kSectorBytes; s <= (a.address + a.bytes - 1) / kSectorBytes;
           ++s)
        sectors.insert(s);
  return uint32_t(sectors.size());
}

uint32_t bank_conflict_ways(std::span<const LaneAccess> lanes) {
  return over_phases(lanes, [](uint32_t a, uint32_t b) { return std::max(a, b); });
}

uint32_t shared_wavefronts(std::span<const LaneAccess> lanes) {
  return over_phases(lanes, [](uint32_t a, uint32_t b) { return a + b; });
}

std::vector<MemoryRequest> memory_requests(const Trace& trace) {
  const uint64_t block_threads = std::max<uint64_t>(trace.header.launch.block.count(), 1);
  // A request: (block, warp, instruction, kind, execution count). An instruction is its code
  // address for instrumented accesses, its line for traced ones (which have no address).
  using Site = std::tuple<uint64_t, uint16_t, bool>;  // (instruction, line, store)
  using RequestKey = std::tuple<uint64_t, uint32_t, Site, bool, uint64_t>;
  std::map<std::pair<uint32_t, Site>, uint64_t> executions;  // per thread and site
  std::map<RequestKey, MemoryRequest> requests;
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    if (e.kind != EventKind::Load && e.kind != EventKind::Store) continue;
    // Another block's shared memory (distributed shared memory) is neither the block's banks nor
    // global memory's sectors: the SMs exchange it over their own network.
    if (e.flags & kFlagCluster) continue;
    const bool store = e.kind == EventKind::Store;
    const bool instrumented = e.flags & kFlagInstrumented;
    const Site site{instrumented ? e.group_id : 0, e.line, store};
    const uint64_t k = executions[{e.thread, site}]++;
    const uint64_t block = e.thread / block_threads;
    const uint32_t in_block = uint32_t(e.thread % block_threads);
    const bool shared = e.flags & kFlagShared;
    MemoryRequest& r = requests[{block, in_block / kWarpSize, site, shared, k}];
    if (r.lanes.empty()) {
      r.block = uint32_t(block);
      r.warp = in_block / kWarpSize;
      r.line = e.line;
      r.space = shared ? MemorySpace::Shared : MemorySpace::Global;
      r.store = store;
      r.execution = k;
    }
    r.lanes.push_back(LaneAccess{in_block % kWarpSize, e.address, access_bytes(e)});
    r.events.push_back(i);
  }
  std::vector<MemoryRequest> out;
  out.reserve(requests.size());
  for (auto& [key, r] : requests) out.push_back(std::move(r));
  return out;
}

RequestLayout layout_request(const MemoryRequest& request) {
  RequestLayout out;
  for (const LaneAccess& a : request.lanes) {
    RequestLayout::Lane l;
    l.lane = a.lane;
    l.address = a.address;
    l.bytes = a.bytes;
    l.word = a.address / kBankBytes;
    l.bank = uint32_t(l.word % kBanks);
    out.lanes.push_back(l);
  }
  std::sort(out.lanes.begin(), out.lanes.end(),
            [](const auto& a, const auto& b) { return a.lane < b.lane; });
  if (request.space == MemorySpace::Global) {
    for (const LaneAccess& a : request.lanes) out.sectors.push_back(a.address / kSectorBytes);
    std::sort(out.sectors.begin(), out.sectors.end());
    out.sectors.erase(std::unique(out.sectors.begin(), out.sectors.end()), out.sectors.end());
    for (RequestLayout::Lane& l : out.lanes)
      l.sector = uint32_t(
          std::lower_bound(out.sectors.begin(), out.sectors.end(), l.address / kSectorBytes) -
          out.sectors.begin());
    return out;
  }
  uint32_t widest = 0;
  for (const LaneAccess& a : request.lanes) widest = std::max(widest, a.bytes);
  const uint32_t per_phase = lanes_per_phase(widest);
  out.phases = kWarpSize / per_phase;
  out.ways = bank_conflict_ways(request.lanes);
  out.wavefronts = shared_wavefronts(request.lanes);
  out.bank_words.assign(kBanks, 0);
  for (uint32_t first = 0; first < kWarpSize; first += per_phase) {
    std::array<std::set<uint64_t>, kBanks> words;
    for (const RequestLayout::Lane& l : out.lanes)
      if (l.lane / per_phase == first / per_phase) words[l.bank].insert(l.word);
    // The banks of the phase with the most passes are the ones worth showing.
    size_t worst = 0, shown = 0;
    for (const auto& bank : words) worst = std::max(worst, bank.size());
    for (uint32_t b = 0; b < kBanks; ++b) shown = std::max<size_t>(shown, out.bank_words[b]);
    if (worst > shown)
      for (uint32_t b = 0; b < kBanks; ++b) out.bank_words[b] = uint32_t(words[b].size());
    for (RequestLayout::Lane& l : out.lanes) {
      if (l.lane / per_phase != first / per_phase) continue;
      l.conflicting = words[l.bank].size() > 1;
      for (const RequestLayout::Lane& other : out.lanes)
        if (other.lane != l.lane && other.lane / per_phase == l.lane / per_phase &&
            other.word == l.word)
          l.broadcast = true;
    }
  }
  return out;
}

std::vector<LineMemoryStats> analyze_memory(const Trace& trace) {
  std::map<std::tuple<uint16_t, bool, bool>, LineMemoryStats> lines;  // (line, shared, store)
  for (const MemoryRequest& r : memory_requests(trace)) {
    const bool shared = r.space == MemorySpace::Shared;
    LineMemoryStats& s = lines[{r.line, shared, r.store}];
    s.kernel = trace.header.kernel;
    s.line = r.line;
    s.space = r.space;
    s.store = r.store;
    ++s.requests;
    s.accesses += r.lanes.size();
    if (shared) {
      s.bank_conflict_ways = std::max(s.bank_conflict_ways, bank_conflict_ways(r.lanes));
      const uint32_t passes = shared_wavefronts(r.lanes);
      s.wavefronts += passes;
      s.bank_conflicts += passes - phases_of(r.lanes);
    } else {
      s.sectors += sectors_touched(r.lanes);
    }
  }
  std::vector<LineMemoryStats> out;
  for (auto& [key, s] : lines) out.push_back(std::move(s));
  return out;
}

nlohmann::json memory_report(std::span<const Trace> launches) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t launch = 0; launch < launches.size(); ++launch) {
    const LaunchConfig& config = launches[launch].header.launch;
    const nlohmann::json grid = {config.grid.x, config.grid.y, config.grid.z};
    const nlohmann::json block = {config.block.x, config.block.y, config.block.z};
    for (const LineMemoryStats& s : analyze_memory(launches[launch]))
      out.push_back({{"kernel", s.kernel},
                     {"launch", launch},
                     {"grid", grid},
                     {"block", block},
                     {"line", s.line},
                     {"space", to_string(s.space)},
                     {"kind", s.store ? "store" : "load"},
                     {"requests", s.requests},
                     {"accesses", s.accesses},
                     {"sectors", s.sectors},
                     {"sectors_per_request", s.sectors_per_request()},
                     {"bank_conflict_ways", s.bank_conflict_ways},
                     {"wavefronts", s.wavefronts},
                     {"bank_conflicts", s.bank_conflicts}});
  }
  return out;
}

}  // namespace coop
