#include "visual/memory_order.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "device/trace/value.hpp"
#include "visual/value_math.hpp"

namespace coop::visual {
namespace {

// The value an atomic leaves, for the ops that are not plain reductions.
template <class T>
bool other_result(Op op, uint64_t old_bits, uint64_t operand_bits, uint64_t& result) {
  const T old = from_bits<T>(old_bits), v = from_bits<T>(operand_bits);
  switch (op) {
    case Op::AtomicSub:
      result = to_bits(wrapping_sub(old, v));
      return true;
    case Op::AtomicExch:
    case Op::AtomicStore:
      result = operand_bits;
      return true;
    case Op::AtomicLoad:
      result = old_bits;
      return true;
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    // CUDA's wrapping counters: inc wraps to 0 past v, dec wraps to v at 0 or above v.
    if (op == Op::AtomicInc) return result = to_bits(T(old >= v ? 0 : old + 1)), true;
    if (op == Op::AtomicDec)
      return result = to_bits(T(old == 0 || old > v ? v : wrapping_sub(old, T(1)))), true;
  }
  return false;  // CAS: the event does not carry the compare value
}

// Orders atomics by following old values: each landing found the value the previous one left.
// The atomics are the edges (old -> result) of a path through the values; it starts at the one
// value found once more than it was left (the initial value). An atomic that leaves the value it
// found (an add of 0, a max below the current value) is taken as soon as its value is reached.
// Returns false (and leaves the order alone) unless the path is unique and covers all.
bool order_by_chain(AddressHistory& h) {
  std::vector<AtomicLanding>& a = h.atomics;
  const size_t n = a.size();
  if (n < 2) return true;
  std::vector<uint64_t> result(n);
  for (size_t i = 0; i < n; ++i)
    if (!atomic_result(a[i].op, h.type, a[i].old, a[i].operand, result[i])) return false;
  std::unordered_map<uint64_t, int64_t> balance;  // found minus left, per value
  for (size_t i = 0; i < n; ++i) ++balance[a[i].old], --balance[result[i]];
  uint64_t value = 0;
  size_t starts = 0;
  for (const auto& [v, b] : balance) {
    if (b > 1) return false;
    if (b == 1) value = v, ++starts;
  }
  if (starts != 1) return false;  // a cycle (no initial value) or two chains: ambiguous
  // Value -> atomics that found it, in playback order (ties: the earlier recorded goes first).
  std::unordered_multimap<uint64_t, size_t> by_old;
  for (size_t i = n; i-- > 0;) by_old.emplace(a[i].old, i);
  std::vector<bool> used(n, false);
  std::vector<AtomicLanding> ordered;
  ordered.reserve(n);
  while (ordered.size() < n) {
    size_t next = n;
    bool next_stays = false;
    for (auto [it, end] = by_old.equal_range(value); it != end; ++it) {
      const size_t i = it->second;
      if (used[i]) continue;
      const bool stays = result[i] == value;
      if (next == n || (stays && !next_stays) ||
          (stays == next_stays && a[i].position < a[next].position))
        next = i, next_stays = stays;
    }
    if (next == n) return false;
    used[next] = true;
    ordered.push_back(a[next]);
    value = result[next];
  }
  a = std::move(ordered);
  return true;
}

}  // namespace

bool atomic_result(Op op, ValueType type, uint64_t old, uint64_t operand, uint64_t& result) {
  if (const Op reduce = reduce_operator_of(op); reduce != Op::None) {
    result = combine_values(reduce, type, old, operand);
    return type != ValueType::None;
  }
  switch (type) {
    case ValueType::I32:
      return other_result<int32_t>(op, old, operand, result);
    case ValueType::U32:
      return other_result<uint32_t>(op, old, operand, result);
    case ValueType::I64:
      return other_result<int64_t>(op, old, operand, result);
    case ValueType::U64:
      return other_result<uint64_t>(op, old, operand, result);
    case ValueType::F32:
      return other_result<float>(op, old, operand, result);
    case ValueType::F64:
      return other_result<double>(op, old, operand, result);
    default:
      return false;
  }
}

size_t landed_in_order(const AddressHistory& h, size_t cursor) {
  size_t n = 0;
  while (n < h.atomics.size() && h.atomics[n].position < cursor) ++n;
  return n;
}

std::vector<AddressHistory> build_memory_histories(const TimelineModel& model) {
  const uint32_t block_threads = std::max(1u, model.block_threads());
  std::map<std::tuple<bool, uint32_t, uint64_t>, AddressHistory> by_address;
  // Per address: each thread's latest load (index into accesses) and the latest store.
  std::map<std::tuple<bool, uint32_t, uint64_t>, std::unordered_map<uint32_t, size_t>> loads;
  std::map<std::tuple<bool, uint32_t, uint64_t>, int64_t> last_store;
  for (size_t pos = 0; pos < model.size(); ++pos) {
    const Event& e = model.at(pos);
    if (e.kind != EventKind::Atomic && e.kind != EventKind::Load && e.kind != EventKind::Store)
      continue;
    const bool shared = in_shared_memory(e);
    const uint32_t block = shared ? shared_owner(e, block_threads) : 0;
    const uint64_t address = shared ? shared_offset_of(e) : e.address;
    const auto key = std::make_tuple(shared, block, address);
    AddressHistory& h = by_address[key];
    h.address = address;
    h.flags = shared ? kFlagShared : 0;
    h.block = block;
    if (h.type == ValueType::None) h.type = e.value_type;
    if (e.kind == EventKind::Atomic) {
      h.atomics.push_back({pos, e.thread, e.op, e.a, e.b, e.line, e.flags});
      continue;
    }
    RaceAccess acc;
    acc.position = pos;
    acc.thread = e.thread;
    acc.store = e.kind == EventKind::Store;
    acc.value = acc.store ? e.a : e.b;
    const size_t index = h.accesses.size();
    if (!acc.store) {
      loads[key][e.thread] = index;
    } else {
      // Read-modify-write race: another thread stored after this thread's load, and this
      // store now replaces that value without having seen it.
      auto& mine = loads[key];
      auto l = mine.find(e.thread);
      auto s = last_store.find(key);
      if (l != mine.end() && s != last_store.end() && size_t(s->second) > l->second &&
          h.accesses[size_t(s->second)].thread != e.thread) {
        acc.overwrote = s->second;
        ++h.lost_updates;
      }
      last_store[key] = int64_t(index);
    }
    h.accesses.push_back(acc);
  }
  std::vector<AddressHistory> out;
  out.reserve(by_address.size());
  for (auto& [key, h] : by_address) {
    h.order_exact = order_by_chain(h);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace coop::visual
