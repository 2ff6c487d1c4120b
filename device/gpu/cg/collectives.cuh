// coop::cg under nvcc, part 5: reduce, inclusive_scan, exclusive_scan over tiles and coalesced
// groups (cooperative_groups' own, which uses redux.sync for 4-byte integers on sm_80+; other
// groups are refused with CUDA's words); invoke_one and invoke_one_broadcast with the chosen
// thread recorded.
#pragma once

#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cuda/std/type_traits>

#include "device/coop/operators.hpp"
#include "device/gpu/cg/partitions.cuh"

namespace coop::cg {
namespace detail {

// coop's operator -> cooperative_groups' functor of the same meaning; the user's own function
// objects go to cooperative_groups as they are.
template <class Fn>
__device__ const Fn& real_op(const Fn& fn) {
  return fn;
}
template <class T>
__device__ real::plus<T> real_op(const plus<T>&) {
  return {};
}
template <class T>
__device__ real::less<T> real_op(const less<T>&) {
  return {};
}
template <class T>
__device__ real::greater<T> real_op(const greater<T>&) {
  return {};
}
template <class T>
__device__ real::bit_and<T> real_op(const bit_and<T>&) {
  return {};
}
template <class T>
__device__ real::bit_or<T> real_op(const bit_or<T>&) {
  return {};
}
template <class T>
__device__ real::bit_xor<T> real_op(const bit_xor<T>&) {
  return {};
}

enum class Scan { None, Inclusive, Exclusive };

template <Scan ScanKind, class Group, class T, class Fn>
__device__ T reduce_or_scan(const Group& g, T value, const Fn& fn, int line) {
  static_assert(operator_fits<Fn, T>(), "Operator and argument types differ");
  static_assert(tile_collective_group<Group>,
                "This group does not exclusively represent a tile: reduce and the scans take a "
                "thread_block_tile<N> or a coalesced_group");
  T out;
  if constexpr (ScanKind == Scan::None) {
    out = real::reduce(g.real_group(), value, real_op(fn));
  } else if constexpr (ScanKind == Scan::Inclusive) {
    out = real::inclusive_scan(g.real_group(), value, real_op(fn));
  } else {
    out = real::exclusive_scan(g.real_group(), value, real_op(fn));
  }
  constexpr Op op = ScanKind == Scan::None        ? Op::Reduce
                    : ScanKind == Scan::Inclusive ? Op::InclusiveScan
                                                  : Op::ExclusiveScan;
  record_collective(g.trace_id(), uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line, op,
                    value, out, uint32_t(op_code<Fn>()));
  return out;
}

}  // namespace detail

template <class Group, class T, class Fn>
__device__ T reduce(const Group& g, T value, Fn fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::None>(g, value, fn, line);
}
template <class Group, class T, class Fn>
__device__ T inclusive_scan(const Group& g, T value, Fn fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Inclusive>(g, value, fn, line);
}
template <class Group, class T>
__device__ T inclusive_scan(const Group& g, T value, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Inclusive>(g, value, plus<T>(), line);
}
template <class Group, class T, class Fn>
__device__ T exclusive_scan(const Group& g, T value, Fn fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Exclusive>(g, value, fn, line);
}
template <class Group, class T>
__device__ T exclusive_scan(const Group& g, T value, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Exclusive>(g, value, plus<T>(), line);
}

namespace detail {

// Broadcast of 32-bit words from rank 0 of a group that spans warps (a multi-warp tile's shfl).
template <class Group>
__device__ void broadcast_rank0(const void* group, uint32_t* words, unsigned count) {
  if constexpr (requires(const Group& g) { g.real_group().shfl(0u, 0u); }) {
    for (unsigned i = 0; i < count; ++i)
      words[i] = static_cast<const Group*>(group)->real_group().shfl(words[i], 0u);
  } else {
    __trap();  // invoke_one_broadcast refuses other groups when it is compiled
  }
}

// The group of an invoke_one call plus the caller's line.
struct invoke_target {
  TraceId id;
  uint32_t rank, size;
  int line;
  const void* group;
  void (*broadcast)(const void*, uint32_t*, unsigned);
  template <class Group>
  __device__ invoke_target(const Group& g, int line)
      : id(g.trace_id()),
        rank(uint32_t(g.thread_rank())),
        size(uint32_t(g.num_threads())),
        line(line),
        group(&g),
        broadcast(&broadcast_rank0<Group>) {}
};

// Which member runs the invocable: within a warp, the lane elect.sync picks on sm_90 (as
// cooperative_groups does) or the lowest lane; in larger groups, rank 0.
__device__ __forceinline__ uint32_t elect(const invoke_target& t, uint32_t* leader_lane) {
  if (t.id.mask == 0) return 0;
  uint32_t lane = __ffs(t.id.mask) - 1;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t .reg .pred p;\n\t elect.sync %0|p, %1;\n\t}" : "=r"(lane) : "r"(t.id.mask));
#endif
  *leader_lane = lane;
  return __popc(t.id.mask & low_mask(lane));
}

__device__ __forceinline__ void record_invoke(const invoke_target& t, uint32_t chosen,
                                              uint64_t arrive, uint64_t value, ValueType type) {
  if (!gpu::tracing()) return;
  Event e = group_event(EventKind::InvokeOne, t.id.kind, t.id.id, t.rank, t.size, t.line);
  e.time = arrive;
  e.a = t.rank == chosen;
  e.b = value;
  e.extra = chosen;
  e.value_type = type;
  e.flags |= kFlagNondeterministic;
  gpu::record(e);
}


// One member of the group runs fn(args...); the others go on. Records the chosen rank.
template <class Fn, class... Args>
__device__ void invoke_one_on(invoke_target g, Fn&& fn, Args&&... args) {
  const uint64_t arrive = gpu::global_timer();
  uint32_t leader = 0;
  const uint32_t chosen = detail::elect(g, &leader);
  if (g.rank == chosen) static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
  detail::record_invoke(g, chosen, arrive, 0, ValueType::None);
}

// As invoke_one, and every member receives what the chosen one's call returned, moved as 32-bit
// words (values up to the 32 bytes cooperative_groups' shuffles carry; the trace holds the hash
// of those over 8, as the emulator's does).
template <class Fn, class... Args>
__device__ auto invoke_one_broadcast_on(invoke_target g, Fn&& fn, Args&&... args)
    -> ::cuda::std::remove_cvref_t<decltype(fn(args...))> {
  using R = ::cuda::std::remove_cvref_t<decltype(fn(args...))>;
  static_assert(!::cuda::std::is_void_v<R>, "use invoke_one for invocables that return nothing");
  static_assert(sizeof(R) <= 32 && ::cuda::std::is_trivially_copyable_v<R>,
                "invoke_one_broadcast carries trivially copyable values of at most 32 bytes");
  const uint64_t arrive = gpu::global_timer();
  uint32_t leader = 0;
  const uint32_t chosen = detail::elect(g, &leader);
  R result{};
  if (g.rank == chosen) result = static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
  constexpr unsigned kWords = (sizeof(R) + 3) / 4;
  uint32_t words[kWords] = {};
  memcpy(words, &result, sizeof(R));
  if (g.id.mask)
    for (unsigned i = 0; i < kWords; ++i) words[i] = ::__shfl_sync(g.id.mask, words[i], leader);
  else
    g.broadcast(g.group, words, kWords);
  memcpy(&result, words, sizeof(R));
  detail::record_invoke(g, chosen, arrive, to_bits(result), value_type_of<R>());
  return result;
}

}  // namespace detail

// One member of the group runs fn(); the others go on. The chosen rank is recorded.
// coop takes the invocable alone (give it arguments by capture): the source line then travels as a
// plain trailing default argument. nvcc's device pass evaluates __builtin_LINE() defaults at the
// declaration for templates with SFINAE, constraints or a trailing decltype, and at the call only
// for plain ones like these.
template <class Group, class Fn>
__device__ void invoke_one(const Group& g, Fn&& fn, int line = __builtin_LINE()) {
  detail::invoke_one_on(detail::invoke_target(g, line), static_cast<Fn&&>(fn));
}

// As invoke_one, and every member receives what the chosen one's fn() returned. As in
// cooperative_groups, only the groups that shuffle have it.
template <class Group, class Fn>
__device__ auto invoke_one_broadcast(const Group& g, Fn&& fn, int line = __builtin_LINE()) {
  static_assert(detail::tile_collective_group<Group>,
                "invoke_one_broadcast needs a thread_block_tile or a coalesced_group (it shuffles "
                "the result)");
  static_assert(
      !::cuda::std::is_base_of_v<detail::multi_warp_base, Group> || sizeof(decltype(fn())) <= 8,
      "Collectives with tiles larger than 32 threads are limited to types of at most 8 "
      "bytes");
  return detail::invoke_one_broadcast_on(detail::invoke_target(g, line), static_cast<Fn&&>(fn));
}

}  // namespace coop::cg
