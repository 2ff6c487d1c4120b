// coop::cg under nvcc, part 5: reduce, inclusive_scan, exclusive_scan over tiles and coalesced
// groups (cooperative_groups' own, which uses redux.sync for 4-byte integers on sm_80+) and over
// thread blocks (coop's own, block_collectives.cuh); invoke_one and invoke_one_broadcast with the
// chosen thread recorded.
#pragma once

#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cuda/std/type_traits>

#include "device/coop/operators.hpp"
#include "device/gpu/cg/block_collectives.cuh"
#include "device/gpu/cg/partitions.cuh"

namespace coop::cg {
namespace detail {

// coop's operator -> cooperative_groups' functor of the same meaning.
template <class Fn>
struct real_op;
template <class T> struct real_op<plus<T>> { using type = real::plus<T>; };
template <class T> struct real_op<less<T>> { using type = real::less<T>; };
template <class T> struct real_op<greater<T>> { using type = real::greater<T>; };
template <class T> struct real_op<bit_and<T>> { using type = real::bit_and<T>; };
template <class T> struct real_op<bit_or<T>> { using type = real::bit_or<T>; };
template <class T> struct real_op<bit_xor<T>> { using type = real::bit_xor<T>; };

enum class Scan { None, Inclusive, Exclusive };

template <Scan K, class Group, class T, class Fn>
__device__ T reduce_or_scan(const Group& g, T value, int line) {
  using R = typename real_op<Fn>::type;
  T out;
  if constexpr (::cuda::std::is_same_v<Group, thread_block>) {
    if constexpr (K == Scan::None) out = block_reduce<T, Fn>(value);
    else out = block_scan<T, Fn, K == Scan::Exclusive>(value);
  } else if constexpr (K == Scan::None) {
    out = real::reduce(g.real_group(), value, R());
  } else if constexpr (K == Scan::Inclusive) {
    out = real::inclusive_scan(g.real_group(), value, R());
  } else {
    out = real::exclusive_scan(g.real_group(), value, R());
  }
  constexpr Op op = K == Scan::None ? Op::Reduce
                    : K == Scan::Inclusive ? Op::InclusiveScan : Op::ExclusiveScan;
  record_collective(g.trace_id(), uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line, op,
                    value, out, uint32_t(Fn::op));
  return out;
}

}  // namespace detail

template <class Group, class T, class Fn>
__device__ T reduce(const Group& g, T value, Fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::None, Group, T, Fn>(g, value, line);
}
template <class Group, class T, class Fn>
__device__ T inclusive_scan(const Group& g, T value, Fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Inclusive, Group, T, Fn>(g, value, line);
}
template <class Group, class T>
__device__ T inclusive_scan(const Group& g, T value, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Inclusive, Group, T, plus<T>>(g, value, line);
}
template <class Group, class T, class Fn>
__device__ T exclusive_scan(const Group& g, T value, Fn, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Exclusive, Group, T, Fn>(g, value, line);
}
template <class Group, class T>
__device__ T exclusive_scan(const Group& g, T value, int line = __builtin_LINE()) {
  return detail::reduce_or_scan<detail::Scan::Exclusive, Group, T, plus<T>>(g, value, line);
}

namespace detail {

// Broadcast from rank 0 of a group that spans warps (a multi-warp tile's shfl).
template <class G>
__device__ uint64_t broadcast_rank0(const void* group, uint64_t bits) {
  if constexpr (requires(const G& g) { g.real_group().shfl(bits, 0u); })
    return static_cast<const G*>(group)->real_group().shfl(bits, 0u);
  else
    __trap();  // invoke_one_broadcast exists for tiles and coalesced groups only
  return bits;
}

// The group of an invoke_one call plus the caller's line.
struct invoke_target {
  TraceId id;
  uint32_t rank, size;
  int line;
  const void* group;
  uint64_t (*broadcast)(const void*, uint64_t);
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

// As invoke_one, and every member receives what the chosen one's call returned.
template <class Fn, class... Args>
__device__ auto invoke_one_broadcast_on(invoke_target g, Fn&& fn, Args&&... args)
    -> ::cuda::std::remove_cvref_t<decltype(fn(args...))> {
  using R = ::cuda::std::remove_cvref_t<decltype(fn(args...))>;
  static_assert(!::cuda::std::is_void_v<R>, "use invoke_one for invocables that return nothing");
  static_assert(sizeof(R) <= 8, "invoke_one_broadcast carries values of at most 8 bytes");
  const uint64_t arrive = gpu::global_timer();
  uint32_t leader = 0;
  const uint32_t chosen = detail::elect(g, &leader);
  R result{};
  if (g.rank == chosen) result = static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
  uint64_t bits = to_bits(result);
  bits = g.id.mask ? ::__shfl_sync(g.id.mask, bits, leader) : g.broadcast(g.group, bits);
  detail::record_invoke(g, chosen, arrive, bits, value_type_of<R>());
  return from_bits<R>(bits);
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

// As invoke_one, and every member receives what the chosen one's fn() returned.
template <class Group, class Fn>
__device__ auto invoke_one_broadcast(const Group& g, Fn&& fn, int line = __builtin_LINE()) {
  return detail::invoke_one_broadcast_on(detail::invoke_target(g, line), static_cast<Fn&&>(fn));
}

}  // namespace coop::cg
