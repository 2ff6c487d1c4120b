// [SECTION] Partitions that are no barrier: a tile of at most 32 threads is each thread's own
// arithmetic on a GPU (cooperative_groups.h computes it from the thread's rank), so its creation
// makes no thread wait. CUDA still requires every member of the parent to make the call; the
// emulator counts each thread's calls per site and, once the block has finished, reports a
// member that skipped one.
#include <algorithm>
#include <bit>
#include <sstream>

#include "device/emu/scheduler_state.hpp"

namespace coop::emu {
using namespace detail;

namespace {

// The parent's members among the block's threads, by thread rank.
std::vector<uint32_t> members(const PartitionSite& s) {
  std::vector<uint32_t> out;
  if (s.warp_mask) {
    for (uint32_t m = s.warp_mask; m; m &= m - 1) out.push_back(s.warp * 32 + std::countr_zero(m));
  } else {
    for (uint32_t t = s.first; t < s.first + s.size; ++t) out.push_back(t);
  }
  return out;
}

}  // namespace

void note_partition(const GroupRef& parent, uint16_t line, const char* what) {
  Lane& lane = current_lane();
  Block& block = *lane.block;
  const uint64_t key = parent.key * 0x9E3779B97F4A7C15ull ^ line;
  auto [it, fresh] = block.partition_sites.try_emplace(key);
  PartitionSite& s = it->second;
  if (fresh) {
    s.line = line;
    s.what = what;
    s.parent_kind = parent.kind;
    s.first = lane.info.thread_rank - parent.rank;
    s.size = parent.size;
    s.warp = lane.info.warp;
    s.warp_mask = parent.warp_mask;
    s.made.assign(block.lanes.size(), 0);
    s.excused.assign(block.lanes.size(), 0);
  }
  const uint32_t made = ++s.made[lane.info.thread_rank];
  // A warp-level parent's lanes that have exited take no part, as in any warp operation.
  for (uint32_t m = s.warp_mask; m; m &= m - 1) {
    const uint32_t t = s.warp * 32 + uint32_t(std::countr_zero(m));
    if (block.lanes[t].state == LaneState::Done && s.made[t] + s.excused[t] < made)
      s.excused[t] = made - s.made[t];
  }
}

std::string detail::skipped_partition(const Block& block) {
  const PartitionSite* worst = nullptr;
  std::vector<const Lane*> skipped, made;
  uint32_t most = 0;
  for (const auto& [key, s] : block.partition_sites) {
    if (worst != nullptr && worst->line <= s.line) continue;  // report the first line
    const std::vector<uint32_t> all = members(s);
    uint32_t top = 0;
    for (uint32_t t : all) top = std::max(top, s.made[t] + s.excused[t]);
    std::vector<const Lane*> short_of, full;
    for (uint32_t t : all)
      (s.made[t] + s.excused[t] < top ? short_of : full).push_back(&block.lanes[t]);
    if (short_of.empty()) continue;
    worst = &s;
    skipped = std::move(short_of);
    made = std::move(full);
    most = top;
  }
  if (worst == nullptr) return {};
  std::ostringstream os;
  os << worst->what << " at line " << worst->line << " is collective, but "
     << describe_threads(skipped)
     << (most > 1 ? " made it fewer times than " : " skipped it, which ") << describe_threads(made)
     << (most > 1 ? " (" + std::to_string(most) + " times)" : " made")
     << ". Every thread of the parent group (a " << group_name(worst->parent_kind) << " of "
     << members(*worst).size()
     << " threads) must make the call; CUDA leaves the result undefined "
        "otherwise.";
  return os.str();
}

}  // namespace coop::emu
