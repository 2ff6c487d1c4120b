// Emulated coop::cg, part 5: reduce, inclusive_scan, exclusive_scan and invoke_one.
//
// Floating-point results depend on the order values are combined in, so each group shape
// combines exactly as the GPU code does (CUDA 13 cooperative_groups/details/*.h):
//   tile <= 32 threads  reduce: xor butterfly over the tile (coalesced_reduce); integer operators
//                       on 16/32-thread tiles use redux.sync on sm_80+, which is exact anyway.
//                       scans: Hillis-Steele over shfl_up (inclusive_scan_contiguous).
//   coalesced group     32 lanes: as a 32-thread tile. Fewer: Hillis-Steele scan over ranks
//                       (inclusive_scan_non_contiguous); reduce returns the last rank's value.
//   tile of 64..512     per warp as above, then one warp combines the warp results (butterfly
//                       for reduce, Hillis-Steele of warp totals for scans).
// A thread_block or a runtime-sized thread_group is refused at compile time, as CUDA refuses it.
// Exclusive scans give rank 0 a value-initialized T (0), as cooperative_groups does.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "device/coop/operators.hpp"
#include "device/emu/cg/partitions.hpp"

namespace coop::cg {
namespace detail {

enum class Shape : uint8_t { Tile, Coalesced, MultiWarp };

enum class Scan : uint8_t { None, Inclusive, Exclusive };

template <class Group>
constexpr Shape shape_of() {
  if constexpr (std::is_same_v<Group, coalesced_group>)
    return Shape::Coalesced;
  else if constexpr (Group::num_threads() <= 32)
    return Shape::Tile;
  else return Shape::MultiWarp;
}

// Combines the members' values with the user's operator, in the order the GPU code does.
template <class T, class Fn>
struct Combine {
  const Fn& fn;

  // Each step every member combines its value with the one `offset` ranks away (xor).
  void butterfly(T* v, size_t n) const {
    std::vector<T> next(n);
    for (size_t offset = n / 2; offset > 0; offset /= 2) {
      for (size_t i = 0; i < n; ++i) next[i] = fn(v[i], v[i ^ offset]);
      std::copy(next.begin(), next.end(), v);
    }
  }
  // Inclusive Hillis-Steele scan: step d adds in the value d ranks below, where there is one.
  void hillis_steele(T* v, size_t n) const {
    std::vector<T> next(n);
    for (size_t d = 1; d < n; d *= 2) {
      for (size_t i = 0; i < n; ++i) next[i] = i >= d ? fn(v[i], v[i - d]) : v[i];
      std::copy(next.begin(), next.end(), v);
    }
  }

  void reduce(Shape shape, std::vector<T>& v) const {
    const size_t n = v.size(), warps = (n + 31) / 32;
    if (shape == Shape::Tile || (shape == Shape::Coalesced && n == 32)) {
      butterfly(v.data(), n);
    } else if (shape == Shape::Coalesced) {
      hillis_steele(v.data(), n);
      std::fill(v.begin(), v.end(), v[n - 1]);
    } else {
      std::vector<T> part(warps);
      for (size_t w = 0; w < warps; ++w) {
        butterfly(v.data() + w * 32, 32);
        part[w] = v[w * 32];
      }
      butterfly(part.data(), warps);
      for (size_t i = 0; i < n; ++i) v[i] = part[i / 32];
    }
  }

  void scan(Shape shape, Scan kind, std::vector<T>& v) const {
    const size_t n = v.size();
    if (shape == Shape::Tile || shape == Shape::Coalesced) {
      hillis_steele(v.data(), n);
      if (kind == Scan::Exclusive) {
        for (size_t i = n; i-- > 1;) v[i] = v[i - 1];
        v[0] = T{};
      }
      return;
    }
    // Multi-warp tiles: scan each warp, scan the warp totals, add the prefix of the
    // warps before (op(own, prefix), in that order).
    const size_t warps = n / 32;
    std::vector<T> inclusive(v), totals(warps);
    for (size_t w = 0; w < warps; ++w) {
      hillis_steele(inclusive.data() + w * 32, 32);
      totals[w] = inclusive[w * 32 + 31];
    }
    hillis_steele(totals.data(), warps);
    for (size_t i = 0; i < n; ++i) {
      const size_t w = i / 32, lane = i % 32;
      if (kind == Scan::Inclusive) {
        v[i] = w == 0 ? inclusive[i] : fn(inclusive[i], totals[w - 1]);
      } else if (lane == 0) {
        v[i] = w == 0 ? T{} : totals[w - 1];
      } else {
        v[i] = w == 0 ? inclusive[i - 1] : fn(inclusive[i - 1], totals[w - 1]);
      }
    }
  }

  // Each member's `arg` is the address of its operator (they are alike: the first is used). A
  // value over 8 bytes comes and goes by address (CollectiveCall::wide_bytes); the results it
  // points members at stay here until the rendezvous has copied them out, right after.
  template <Shape GroupShape, Scan ScanKind>
  static void resolve(std::span<emu::CollectiveCall* const> by_rank) {
    constexpr bool wide = sizeof(T) > 8;
    std::vector<T> v(by_rank.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const uint64_t bits = input_of(by_rank, i);
      if constexpr (wide)
        std::memcpy(&v[i], reinterpret_cast<const void*>(bits), sizeof(T));
      else
        v[i] = from_bits<T>(bits);
    }
    const Combine combine{*reinterpret_cast<const Fn*>(by_rank[0]->arg)};
    if constexpr (ScanKind == Scan::None)
      combine.reduce(GroupShape, v);
    else
      combine.scan(GroupShape, ScanKind, v);
    if constexpr (wide) {
      thread_local std::vector<T> results;
      results = std::move(v);
      for (size_t i = 0; i < results.size(); ++i)
        by_rank[i]->out = reinterpret_cast<uint64_t>(&results[i]);
    } else {
      for (size_t i = 0; i < v.size(); ++i) by_rank[i]->out = to_bits(v[i]);
    }
  }
};

template <Scan ScanKind, class Group, class T, class Fn>
T reduce_or_scan(const Group& g, T value, const Fn& fn, int line) {
  static_assert(operator_fits<Fn, T>(), "Operator and argument types differ");
  static_assert(tile_collective_group<Group>,
                "This group does not exclusively represent a tile: reduce and the scans take a "
                "thread_block_tile<N> or a coalesced_group");
  constexpr Shape GroupShape = shape_of<Group>();
  static_assert(GroupShape != Shape::MultiWarp || sizeof(T) <= 8,
                "Collectives with tiles larger than 32 threads are limited to types of at most 8 "
                "bytes");
  constexpr Op op = ScanKind == Scan::None        ? Op::Reduce
                    : ScanKind == Scan::Inclusive ? Op::InclusiveScan
                                                  : Op::ExclusiveScan;
  const char* what = ScanKind == Scan::None        ? "reduce()"
                     : ScanKind == Scan::Inclusive ? "inclusive_scan()"
                                                   : "exclusive_scan()";
  return collective(
      g.trace_ref(), line, op, what, value, &Combine<T, Fn>::template resolve<GroupShape, ScanKind>,
      reinterpret_cast<uint64_t>(&fn), uint64_t(op_code<Fn>()), uint32_t(op_code<Fn>()));
}

}  // namespace detail

// cooperative_groups::reduce over a tile or a coalesced group.
template <class Group, class T, class Fn>
T reduce(const Group& g, T value, Fn fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::None>(g, value, fn, line);
}
template <class Group, class T, class Fn>
T inclusive_scan(const Group& g, T value, Fn fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Inclusive>(g, value, fn, line);
}
template <class Group, class T>
T inclusive_scan(const Group& g, T value, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Inclusive>(g, value, plus<T>(), line);
}
template <class Group, class T, class Fn>
T exclusive_scan(const Group& g, T value, Fn fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Exclusive>(g, value, fn, line);
}
template <class Group, class T>
T exclusive_scan(const Group& g, T value, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Exclusive>(g, value, plus<T>(), line);
}

namespace detail {

// The group of an invoke_one call plus the caller's line.
struct invoke_target {
  emu::GroupRef ref;
  int line;
  template <class Group>
  invoke_target(const Group& g, int line)
      : ref(g.trace_ref()), line(line) {}
};

// The hardware may pick any member: rank 0 by default, another with --seed.
// Only members that are there can be chosen.
inline void resolve_choice(std::span<emu::CollectiveCall* const> by_rank) {
  std::vector<uint32_t> present;
  for (uint32_t i = 0; i < by_rank.size(); ++i)
    if (by_rank[i]) present.push_back(i);
  const uint64_t pick = present[emu::choose(uint32_t(present.size()))];
  for (auto* c : by_rank)
    if (c) c->out = pick;
}
inline void resolve_from_chosen(std::span<emu::CollectiveCall* const> by_rank) {
  for (auto* c : by_rank)
    if (c) c->out = input_of(by_rank, c->shared_arg);
}

inline uint32_t choose_one(const invoke_target& g, uint64_t* arrive) {
  const emu::CollectiveCall call =
      meet(g.ref, g.line, EventKind::InvokeOne, Op::None, "invoke_one()", resolve_choice);
  *arrive = call.arrive_time;
  return uint32_t(call.out);
}

inline void record_invoke(const invoke_target& g, uint32_t chosen, uint64_t arrive, uint64_t value,
                          ValueType type) {
  Event e = group_event(EventKind::InvokeOne, g.ref, g.line);
  e.time = arrive;
  e.a = g.ref.rank == chosen;
  e.b = value;
  e.extra = chosen;
  e.value_type = type;
  e.flags |= kFlagNondeterministic;
  emu::record(e);
}


// One member of the group runs fn(args...); the others go on. Records the chosen rank.
template <class Fn, class... Args>
void invoke_one_on(invoke_target g, Fn&& fn, Args&&... args) {
  uint64_t arrive = 0;
  const uint32_t chosen = detail::choose_one(g, &arrive);
  if (g.ref.rank == chosen) std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...);
  detail::record_invoke(g, chosen, arrive, 0, ValueType::None);
}

// As invoke_one, and every member receives what the chosen one's call returned. Values over 8
// bytes (up to the 32 cooperative_groups' shuffles carry) travel by address, as a collective's
// do, and the trace holds their hash.
template <class Fn, class... Args>
auto invoke_one_broadcast_on(invoke_target g, Fn&& fn, Args&&... args)
    -> std::remove_cvref_t<std::invoke_result_t<Fn, Args...>> {
  using Returned = std::remove_cvref_t<std::invoke_result_t<Fn, Args...>>;
  static_assert(!std::is_void_v<Returned>, "use invoke_one for invocables that return nothing");
  static_assert(sizeof(Returned) <= 32 && std::is_trivially_copyable_v<Returned>,
                "invoke_one_broadcast carries trivially copyable values of at most 32 bytes");
  constexpr bool wide = sizeof(Returned) > 8;
  uint64_t arrive = 0;
  const uint32_t chosen = detail::choose_one(g, &arrive);
  Returned result{}, received{};
  if (g.ref.rank == chosen) result = std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...);
  const uint64_t in = wide ? reinterpret_cast<uint64_t>(&result) : to_bits(result);
  const emu::CollectiveCall call =
      detail::meet(g.ref, g.line, EventKind::InvokeOne, Op::Shfl, "invoke_one_broadcast()",
                   detail::resolve_from_chosen, in, 0, chosen, wide ? &received : nullptr,
                   wide ? uint32_t(sizeof(Returned)) : 0);
  if constexpr (!wide) received = from_bits<Returned>(call.out);
  detail::record_invoke(g, chosen, arrive, to_bits(received), value_type_of<Returned>());
  return received;
}

}  // namespace detail

// One member of the group runs fn(); the others go on. The chosen rank is recorded.
// coop takes the invocable alone (give it arguments by capture): the source line then travels as a
// plain trailing default argument. nvcc's device pass evaluates __builtin_LINE() defaults at the
// declaration for templates with SFINAE, constraints or a trailing decltype, and at the call only
// for plain ones like these.
template <class Group, class Fn>
void invoke_one(const Group& g, Fn&& fn, int line = __builtin_LINE()) {
  detail::invoke_one_on(detail::invoke_target(g, line), std::forward<Fn>(fn));
}

// As invoke_one, and every member receives what the chosen one's fn() returned. As in
// cooperative_groups, only the groups that shuffle have it.
template <class Group, class Fn>
auto invoke_one_broadcast(const Group& g, Fn&& fn, int line = __builtin_LINE()) {
  static_assert(detail::tile_collective_group<Group>,
                "invoke_one_broadcast needs a thread_block_tile or a coalesced_group (it shuffles "
                "the result)");
  if constexpr (detail::is_tile<Group>::value)
    static_assert(Group::num_threads() <= 32 || sizeof(std::invoke_result_t<Fn>) <= 8,
                  "Collectives with tiles larger than 32 threads are limited to types of at most 8 "
                  "bytes");
  return detail::invoke_one_broadcast_on(detail::invoke_target(g, line), std::forward<Fn>(fn));
}

}  // namespace coop::cg
