#include "device/trace/perfetto.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "device/trace/names.hpp"

namespace coop {
namespace {

using json = nlohmann::json;

struct PhaseSlice {
  uint64_t first_arrival = std::numeric_limits<uint64_t>::max();
  uint64_t last_departure = 0;
  uint32_t threads = 0;
  uint16_t line = 0;
};

}  // namespace

std::string to_perfetto_json(const std::vector<Trace>& launches) {
  json events = json::array();
  for (size_t li = 0; li < launches.size(); ++li) {
    const Trace& t = launches[li];
    const uint32_t block_threads = uint32_t(t.header.launch.block.count());
    const bool gpu = t.header.backend == Backend::Gpu;
    uint64_t t0 = std::numeric_limits<uint64_t>::max();
    for (const Event& e : t.events) t0 = std::min(t0, e.time);
    auto us = [&](uint64_t time) { return gpu ? double(time - t0) / 1000.0 : double(time - t0); };
    const uint32_t pid_base = uint32_t(li) << 24;  // launches side by side

    // Names for every block and warp that appears.
    std::map<uint32_t, bool> blocks;
    std::map<std::pair<uint32_t, uint32_t>, bool> warps;
    for (const Event& e : t.events) {
      const uint32_t block = e.thread / block_threads, warp = (e.thread % block_threads) / 32;
      blocks[block] = true;
      warps[{block, warp}] = true;
    }
    for (const auto& [block, _] : blocks)
      events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid_base + block},
                        {"args", {{"name", t.header.kernel + ": block " + std::to_string(block)}}}});
    for (const auto& [bw, _] : warps)
      events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid_base + bw.first},
                        {"tid", bw.second},
                        {"args", {{"name", "warp " + std::to_string(bw.second)}}}});

    // Barrier phases per warp: (block, warp, group kind, group id, phase) -> slice.
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t, uint32_t>, PhaseSlice> phases;
    // Other events per warp, merged when the lanes of a warp did the same thing at the same time.
    std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint8_t, uint16_t, uint8_t>, json> instants;
    for (const Event& e : t.events) {
      const uint32_t block = e.thread / block_threads, warp = (e.thread % block_threads) / 32;
      if (e.kind == EventKind::Barrier || e.kind == EventKind::BarrierWait) {
        PhaseSlice& s = phases[{block, warp, uint8_t(e.group_kind), e.group_id, e.extra}];
        s.first_arrival = std::min(s.first_arrival, e.time);
        s.last_departure = std::max(s.last_departure, e.b);
        ++s.threads;
        s.line = e.line;
        continue;
      }
      auto key = std::make_tuple(block, warp, e.time, uint8_t(e.kind), e.line, uint8_t(e.op));
      auto it = instants.find(key);
      if (it != instants.end()) {
        it->second["args"]["lanes"] = it->second["args"]["lanes"].get<int>() + 1;
        continue;
      }
      json args = {{"line", e.line}, {"lanes", 1}, {"group", name_of(e.group_kind)},
                   {"group_id", e.group_id}};
      if (e.kind == EventKind::Atomic) {
        args["address"] = e.address;
        args["operand_bits"] = e.a;
        args["old_bits"] = e.b;
      }
      std::string name(name_of(e.kind));
      if (e.op != Op::None) name += " " + std::string(name_of(e.op));
      instants.emplace(key, json{{"ph", "i"}, {"s", "t"}, {"name", name},
                                 {"cat", std::string(name_of(e.kind))}, {"ts", us(e.time)},
                                 {"pid", pid_base + block}, {"tid", warp}, {"args", args}});
    }
    for (const auto& [key, s] : phases) {
      const auto& [block, warp, kind, id, phase] = key;
      events.push_back({{"ph", "X"},
                        {"name", "sync phase " + std::to_string(phase) + " (" +
                                     std::string(name_of(GroupKind(kind))) + ")"},
                        {"cat", "barrier"},
                        {"ts", us(s.first_arrival)},
                        {"dur", std::max(0.0, us(s.last_departure) - us(s.first_arrival))},
                        {"pid", pid_base + block},
                        {"tid", warp},
                        {"args", {{"line", s.line}, {"threads", s.threads}, {"group_id", id}}}});
    }
    for (auto& [key, e] : instants) events.push_back(std::move(e));
  }
  json doc = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
  if (!launches.empty())
    doc["metadata"] = {{"coopviz-backend", to_string(launches.front().header.backend)},
                       {"device", launches.front().header.device.name},
                       {"lesson", launches.front().header.lesson},
                       {"time-unit", launches.front().header.backend == Backend::Gpu
                                         ? "microseconds of %globaltimer"
                                         : "emulator steps (one step shown as 1 us)"}};
  return doc.dump();
}

}  // namespace coop
