// What the code view writes beside a kernel line that accessed memory (from the access analysis,
// device/trace/memory_access.hpp): sectors per request for global memory, conflict ways for shared
// memory, for loads and stores, in a few characters; and the same in words for the tooltip.
#pragma once

#include <string>
#include <vector>

#include "device/trace/memory_access.hpp"

namespace coop::visual {

struct MemoryBadge {
  std::string text;     // "ld 4 sect/req  st 32-way"
  std::string details;  // one sentence per space and kind, for the tooltip
  bool poor = false;    // more than 4 sectors per request, or a conflict: worth a look
};

// Badges by line (index = line; lines without accesses have an empty text).
std::vector<MemoryBadge> memory_badges(const std::vector<LineMemoryStats>& stats);

}  // namespace coop::visual
