#include "visual/selection.hpp"

#include <algorithm>

namespace coop::visual {

std::pair<uint32_t, uint32_t> selected_threads(const TimelineModel& model, const Selection& s) {
  if (s.empty() || uint64_t(s.thread) >= model.thread_count()) return {0, 0};
  const uint32_t t = uint32_t(s.thread);
  const uint32_t bt = std::max(1u, model.block_threads());
  const uint32_t block_first = t / bt * bt;
  switch (s.scope) {
    case SelectionScope::Thread:
      return {t, t + 1};
    case SelectionScope::Warp: {
      const uint32_t first = block_first + (t - block_first) / 32 * 32;
      return {first, std::min(first + 32, block_first + bt)};
    }
    case SelectionScope::Block:
      return {block_first, block_first + bt};
  }
  return {0, 0};
}

std::vector<uint32_t> selection_positions(const TimelineModel& model, const Selection& s) {
  const auto [first, last] = selected_threads(model, s);
  std::vector<uint32_t> out;
  for (uint32_t t = first; t < last; ++t) {
    const std::span<const uint32_t> p = model.thread_positions(t);
    out.insert(out.end(), p.begin(), p.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint32_t> selection_line_counts(const ThreadSnapshot& snapshot,
                                            const TimelineModel& model, const Selection& s) {
  std::vector<uint32_t> counts(snapshot.line_counts().size(), 0);
  const auto [first, last] = selected_threads(model, s);
  for (uint32_t t = std::min(first, snapshot.thread_count());
       t < std::min(last, snapshot.thread_count()); ++t) {
    // As line_counts(): every started thread at its latest line, unless it recorded its end.
    if (snapshot.last_position(t) < 0 || snapshot.last_kind(t) == EventKind::ThreadEnd) continue;
    const size_t line = size_t(snapshot.line(t));
    if (line < counts.size()) ++counts[line];
  }
  return counts;
}

std::string selection_label(const TimelineModel& model, const Selection& s) {
  const auto [first, last] = selected_threads(model, s);
  if (first == last) return "nothing";
  const uint32_t bt = std::max(1u, model.block_threads());
  const uint32_t t = uint32_t(s.thread), block = t / bt, warp = t % bt / 32;
  switch (s.scope) {
    case SelectionScope::Thread:
      return "thread " + std::to_string(t) + " (block " + std::to_string(block) + ", warp " +
             std::to_string(warp) + ", lane " + std::to_string(t % 32) + ")";
    case SelectionScope::Warp:
      return "warp " + std::to_string(warp) + " of block " + std::to_string(block);
    case SelectionScope::Block:
      return "block " + std::to_string(block);
  }
  return "";
}

}  // namespace coop::visual
