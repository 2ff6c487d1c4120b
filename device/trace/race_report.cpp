// How races are reported: JSON for tools and the GUI, one line for a person.
#include <algorithm>
#include <array>
#include <sstream>

#include "device/trace/race_detector.hpp"

namespace coop {
namespace {

// The block index (x, y, z) of a block's linear rank.
std::array<uint32_t, 3> block_index(uint64_t rank, const Dim3& grid) {
  return {uint32_t(rank % grid.x), uint32_t(rank / grid.x % grid.y),
          uint32_t(rank / grid.x / grid.y)};
}

std::string block_text(uint64_t rank, const Dim3& grid) {
  const auto [x, y, z] = block_index(rank, grid);
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

uint64_t block_threads(const TraceHeader& h) {
  return std::max<uint64_t>(h.launch.block.count(), 1);
}

// "shared[12] of block (0,0,0)", or a global byte by the buffer it lies in: "total[0]" for a
// whole element, "input+6" inside one, or its address.
std::string place(const Race& r, const TraceHeader& h) {
  if (r.space == MemorySpace::Shared)
    return "shared[" + std::to_string(r.address) + "] of block " +
           block_text(r.block, h.launch.grid);
  for (const BufferInfo& b : h.buffers) {
    if (b.shared || r.address < b.base || r.address >= b.base + b.bytes) continue;
    const uint64_t offset = r.address - b.base;
    if (b.element_size && offset % b.element_size == 0)
      return "global " + b.name + "[" + std::to_string(offset / b.element_size) + "]";
    return "global " + b.name + "+" + std::to_string(offset);
  }
  std::ostringstream os;
  os << "global 0x" << std::hex << r.address;
  return os.str();
}

std::string who(const RaceAccess& a, const TraceHeader& h, bool other_block,
                const std::string& file) {
  std::string text = std::string(a.copy ? "memcpy_async " : "") + to_string(a.kind) +
                     " by thread " + std::to_string(a.thread % block_threads(h));
  if (other_block) text += " of block " + block_text(a.thread / block_threads(h), h.launch.grid);
  return text + (file.empty() ? " at line " : " at " + file + ":") + std::to_string(a.line);
}

// Why nothing orders the two, in the words of what was missing.
std::string why(const Race& r, const TraceHeader& h) {
  if (r.first.copy_pending) return "the copy had not been waited for";
  const bool same_block = r.first.thread / block_threads(h) == r.second.thread / block_threads(h);
  if (r.first.kind == AccessKind::Atomic || r.second.kind == AccessKind::Atomic)
    return "an atomic and a plain access that nothing orders";
  if (!same_block) return "nothing orders them across blocks";
  return "no barrier between them";
}

nlohmann::json side_json(const RaceAccess& a, const TraceHeader& h) {
  const auto [x, y, z] = block_index(a.thread / block_threads(h), h.launch.grid);
  nlohmann::json out = {{"thread", a.thread % block_threads(h)},
                        {"block", {x, y, z}},
                        {"global_thread", a.thread},
                        {"line", a.line},
                        {"kind", to_string(a.kind)},
                        {"sequence", a.sequence}};
  if (a.copy) out["memcpy_async"] = true;
  return out;
}

}  // namespace

const char* to_string(AccessKind kind) {
  switch (kind) {
    case AccessKind::Read:
      return "read";
    case AccessKind::Write:
      return "write";
    case AccessKind::Atomic:
      return "atomic";
  }
  return "read";
}

nlohmann::json races_json(std::span<const Race> races, const TraceHeader& header,
                          const std::string& file) {
  nlohmann::json out = nlohmann::json::array();
  for (const Race& r : races) {
    nlohmann::json j = {{"kernel", r.kernel},
                        {"space", to_string(r.space)},
                        {"address", r.address},
                        {"byte_pairs", r.byte_pairs},
                        {"first", side_json(r.first, header)},
                        {"second", side_json(r.second, header)},
                        {"text", describe_race(r, header, file)}};
    if (r.space == MemorySpace::Shared) {
      const auto [x, y, z] = block_index(r.block, header.launch.grid);
      j["block"] = {x, y, z};
    }
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json races_report(std::span<const Trace> launches) {
  nlohmann::json out = nlohmann::json::array();
  for (const Trace& t : launches)
    for (nlohmann::json& r : races_json(find_races(t), t.header)) out.push_back(std::move(r));
  return out;
}

std::string describe_race(const Race& r, const TraceHeader& h, const std::string& file) {
  const uint64_t bt = block_threads(h);
  const bool across = r.first.thread / bt != r.second.thread / bt;
  // Shared memory names its block; global memory names both threads' blocks when they differ.
  const bool name_blocks = across || r.space == MemorySpace::Global;
  return "race on " + place(r, h) + ": " + who(r.first, h, name_blocks, file) + ", " +
         who(r.second, h, name_blocks, file) + " (" + why(r, h) + ")";
}

}  // namespace coop
