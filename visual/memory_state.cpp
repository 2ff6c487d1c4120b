#include "visual/memory_state.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "visual/memory_order.hpp"

namespace coop::visual {

std::vector<MemoryArray> memory_at(const TimelineModel& model, size_t cursor) {
  const TraceHeader& h = model.trace().header;
  const uint32_t block_threads = std::max(1u, model.block_threads());
  // (shared, block, buffer index or -1) -> array; cells by element index.
  std::map<std::tuple<bool, uint32_t, int64_t>,
           std::pair<MemoryArray, std::map<uint64_t, MemoryCell>>>
      arrays;
  cursor = std::min(cursor, model.size());
  for (size_t pos = 0; pos < cursor; ++pos) {
    const Event& e = model.at(pos);
    if (e.kind != EventKind::Atomic && e.kind != EventKind::Load && e.kind != EventKind::Store)
      continue;
    const bool shared = in_shared_memory(e);
    const uint64_t address = shared ? shared_offset_of(e) : e.address;
    int64_t buffer = -1;
    uint64_t index = address, elem = 1;
    for (size_t b = 0; b < h.buffers.size(); ++b) {
      const BufferInfo& info = h.buffers[b];
      if (info.shared == shared && address >= info.base && address < info.base + info.bytes) {
        buffer = int64_t(b);
        elem = std::max<uint64_t>(1, info.element_size);
        index = (address - info.base) / elem;
        break;
      }
    }
    // A read of another block's shared memory shows in that block's array.
    const uint32_t block = shared ? shared_owner(e, block_threads) : 0;
    auto& [array, cells] = arrays[{shared, block, buffer}];
    if (array.name.empty()) {
      array.name = buffer >= 0 ? h.buffers[size_t(buffer)].name : shared ? "shared" : "global";
      array.shared = shared;
      array.block = block;
      array.type = buffer >= 0 ? h.buffers[size_t(buffer)].type : e.value_type;
    }
    MemoryCell& c = cells[index];
    c.index = index;
    c.last_position = pos;
    if (e.kind == EventKind::Load) {
      ++c.reads;
      if (!c.written) c.value = e.b;
    } else {
      ++c.writes;
      c.written = true;
      c.writer = e.thread;
      uint64_t result = e.a;
      if (e.kind == EventKind::Atomic && !atomic_result(e.op, e.value_type, e.b, e.a, result))
        result = e.b;  // unknown result (CAS): show what it found
      c.value = result;
    }
  }
  std::vector<MemoryArray> out;
  for (auto& [key, entry] : arrays) {
    auto& [array, cells] = entry;
    for (auto& [index, cell] : cells) array.cells.push_back(cell);
    out.push_back(std::move(array));
  }
  return out;
}

}  // namespace coop::visual
