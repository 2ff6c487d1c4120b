#include "visual/collective_flow.hpp"

#include <algorithm>

#include "visual/value_math.hpp"

namespace coop::visual {
namespace {

bool same_call(const Event& a, const Event& b) {
  return a.kind == EventKind::Collective && a.op == b.op && a.line == b.line &&
         a.group_kind == b.group_kind && a.group_id == b.group_id;
}

}  // namespace

int64_t shuffle_source(Op op, uint32_t rank, uint32_t size, uint32_t arg) {
  switch (op) {
    case Op::Shfl:
      return int64_t(arg % std::max(1u, size));
    case Op::ShflDown:
      return rank + arg < size ? int64_t(rank + arg) : int64_t(rank);
    case Op::ShflUp:
      return rank >= arg ? int64_t(rank - arg) : int64_t(rank);
    case Op::ShflXor:
      return (rank ^ arg) < size ? int64_t(rank ^ arg) : int64_t(rank);
    default:
      return -1;
  }
}

std::optional<CollectiveCall> collective_before(const TimelineModel& model, size_t cursor,
                                                int line) {
  cursor = std::min(cursor, model.size());
  size_t pos = cursor;
  while (pos-- > 0) {
    const Event& e = model.at(pos);
    if (e.kind == EventKind::Collective && (line == 0 || e.line == line)) break;
  }
  if (pos >= cursor) return std::nullopt;
  const Event& e = model.at(pos);
  const uint32_t block_threads = std::max(1u, model.block_threads());
  // Which call of this thread it was: the k-th on this group, line and op.
  size_t k = 0;
  for (uint32_t p : model.thread_positions(e.thread)) {
    if (p > pos) break;
    if (same_call(model.at(p), e)) ++k;
  }
  CollectiveCall call;
  call.op = e.op;
  call.group_kind = e.group_kind;
  call.group_id = e.group_id;
  call.block = e.thread / block_threads;
  call.line = e.line;
  call.extra = e.extra;
  call.type = e.value_type;
  call.members.resize(std::max<size_t>(1, e.group_size));
  // Members share the block (every partition kind lives inside one); find each one's k-th call.
  const uint32_t first = call.block * block_threads;
  const uint32_t last = std::min(first + block_threads, model.thread_count());
  for (uint32_t t = first; t < last; ++t) {
    size_t seen = 0;
    for (uint32_t p : model.thread_positions(t)) {
      const Event& m = model.at(p);
      if (!same_call(m, e) || ++seen < k) continue;
      if (m.rank < call.members.size()) {
        CollectiveMember& member = call.members[m.rank];
        member = {t, m.a, m.b, shuffle_source(m.op, m.rank, m.group_size, m.extra), p, true};
      }
      break;
    }
  }
  return call;
}

std::vector<std::vector<uint64_t>> reduce_tree(const std::vector<uint64_t>& inputs, Op op,
                                               ValueType type) {
  std::vector<std::vector<uint64_t>> levels{inputs};
  while (levels.back().size() > 1) {
    const std::vector<uint64_t>& prev = levels.back();
    std::vector<uint64_t> next;
    for (size_t i = 0; i < prev.size(); i += 2)
      next.push_back(i + 1 < prev.size() ? combine_values(op, type, prev[i], prev[i + 1])
                                         : prev[i]);
    levels.push_back(std::move(next));
  }
  return levels;
}

}  // namespace coop::visual
