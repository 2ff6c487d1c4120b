// Global and shared arrays as the traced loads, stores and atomics left them at a playback
// cursor: each touched element's value, who wrote it last and when, and how often it was read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "visual/timeline_model.hpp"

namespace coop::visual {

struct MemoryCell {
  uint64_t index = 0;    // element index in its array
  uint64_t value = 0;    // last value written (store value, or an atomic's result)
  bool written = false;  // false: only read so far; value is what was read
  int64_t writer = -1;   // thread of the last write
  uint32_t reads = 0, writes = 0;
  size_t last_position = 0;  // playback position of the last access
};

struct MemoryArray {
  std::string name;  // buffer name, or "global" / "shared" for unnamed addresses
  bool shared = false;
  uint32_t block = 0;  // shared arrays: whose block
  ValueType type = ValueType::None;
  std::vector<MemoryCell> cells;  // touched elements, by index
};

// Arrays touched by events [0, cursor), in buffer order (global first, then shared by block).
std::vector<MemoryArray> memory_at(const TimelineModel& model, size_t cursor);

}  // namespace coop::visual
