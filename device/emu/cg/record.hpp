// Emulated coop::cg, part 1: how a traced call meets its group and what it records. Every group
// operation is a rendezvous (emu_api.hpp) of the group's members at one call; the resolver sees
// all members' inputs at once, ordered by rank, and computes each member's result.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

#include "device/emu/emu_api.hpp"
#include "device/trace/event.hpp"
#include "device/trace/value.hpp"

namespace coop::cg::detail {

// Identity of a member set within its scope (block, or launch for grid and cluster groups).
inline uint64_t group_key(GroupKind kind, uint32_t a, uint32_t b) {
  return (uint64_t(kind) << 56) ^ (uint64_t(a) << 32) ^ b;
}

inline uint32_t low_mask(uint32_t n) { return n >= 32 ? 0xffffffffu : ((1u << n) - 1); }

// Rank of the lane among the set bits of `mask` below it (a coalesced group's thread_rank()).
inline uint32_t rank_in_mask(uint32_t mask, uint32_t lane) {
  return uint32_t(std::popcount(mask & low_mask(lane)));
}

// A group of lanes of the caller's warp given by their lane mask: coalesced groups and the
// results of labeled, binary and stride partitions.
COOP_EMU_UNRECORDED inline emu::GroupRef warp_group(GroupKind kind, uint32_t id, uint32_t mask) {
  const emu::ThreadInfo& t = emu::this_thread();
  emu::GroupRef g;
  g.kind = kind;
  g.id = id;
  g.rank = rank_in_mask(mask, t.lane);
  g.size = uint32_t(std::popcount(mask));
  g.key = group_key(GroupKind::Coalesced, t.warp, mask);
  g.warp_mask = mask;
  return g;
}

// The calling thread's block as a group (this_thread_block(), __syncthreads()).
COOP_EMU_UNRECORDED inline emu::GroupRef block_group() {
  const emu::ThreadInfo& t = emu::this_thread();
  emu::GroupRef g;
  g.kind = GroupKind::Block;
  g.id = t.block_rank;
  g.rank = t.thread_rank;
  g.size = t.block_threads;
  g.key = group_key(GroupKind::Block, 0, 0);
  return g;
}

// A tile of `size` threads (a power of two) holding the caller, counted from the block's start.
// Tiles of at most 32 threads live in one warp; `present` is how many of its threads exist.
COOP_EMU_UNRECORDED inline emu::GroupRef tile_group(uint32_t size, uint32_t present) {
  const emu::ThreadInfo& t = emu::this_thread();
  emu::GroupRef g;
  g.kind = GroupKind::Tile;
  g.id = t.thread_rank / size;
  g.rank = t.thread_rank % size;
  g.size = present;
  g.key = group_key(GroupKind::Tile, size, g.id);
  if (size <= 32) g.warp_mask = low_mask(present) << (t.lane & ~(size - 1));
  return g;
}

COOP_EMU_UNRECORDED inline Event group_event(EventKind kind, const emu::GroupRef& g, int line) {
  Event e{};
  e.kind = kind;
  e.group_kind = g.kind;
  e.group_id = g.id;
  e.rank = g.rank;
  e.group_size = g.size;
  e.line = uint16_t(line);
  e.time = emu::now();
  return e;
}

COOP_EMU_UNRECORDED inline void record_create(const emu::GroupRef& g, uint32_t meta_rank,
                                              uint32_t meta_size, int line) {
  Event e = group_event(EventKind::GroupCreate, g, line);
  e.extra = pack_meta(meta_rank, meta_size);
  emu::record(e);
}

// Meets the other members of `g` at one call and returns this member's part once all arrived.
COOP_EMU_UNRECORDED inline emu::CollectiveCall meet(
    const emu::GroupRef& g, int line, EventKind kind, Op op, const char* what,
    emu::Resolver resolve = nullptr, uint64_t in = 0, uint64_t arg = 0, uint64_t shared_arg = 0,
    void* wide_out = nullptr, uint32_t wide_bytes = 0) {
  emu::CollectiveCall call(g, uint16_t(line), op, kind, what, resolve, in, arg, shared_arg,
                           wide_bytes, wide_out);
  emu::rendezvous(call);
  return call;
}

// A barrier of the whole group (sync(), __syncthreads(), grid.sync(), cluster.sync()).
// With a resolver, the barrier also combines what each member passes as `in` (the block votes
// of __syncthreads_count/_and/_or); it is recorded as the plain barrier it is.
COOP_EMU_UNRECORDED inline uint64_t barrier(const emu::GroupRef& g, int line, const char* what,
                                            emu::Resolver resolve = nullptr, uint64_t in = 0) {
  const emu::CollectiveCall call = meet(g, line, EventKind::Barrier, Op::None, what, resolve, in);
  if (!call.traced) return call.out;
  Event e = group_event(EventKind::Barrier, g, line);
  e.time = call.arrive_time;
  e.b = call.depart_time;
  emu::record(e);
  return call.out;
}

// A value that is its bytes though it has its own copy operations (CUDA's __half2 and
// __nv_bfloat162): it moves between members as those bytes. The trace records it as the GPU
// backend does (to_bits: no value for such a type), so traces of both backends still agree.
template <class T>
constexpr bool kBytesValue = sizeof(T) <= 8 && std::is_standard_layout_v<T> &&
                             std::is_trivially_destructible_v<T>;
template <class T>
uint64_t carried_bits(const T& value) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    return to_bits(value);
  } else {
    uint64_t bits = 0;
    memcpy(&bits, static_cast<const void*>(&value), sizeof(T));
    return bits;
  }
}
template <class T>
T carried_value(uint64_t bits) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    return from_bits<T>(bits);
  } else {
    T value;
    memcpy(static_cast<void*>(&value), &bits, sizeof(T));
    return value;
  }
}

// Runs a collective on `g`: every member passes `in`; the resolver computes each member's result.
template <class T>
COOP_EMU_UNRECORDED T collective(const emu::GroupRef& g, int line, Op op, const char* what, T in,
                                 emu::Resolver resolve, uint64_t arg = 0, uint64_t shared_arg = 0,
                                 uint32_t extra = 0, uint64_t* out2 = nullptr,
                                 bool traced = true) {
  static_assert(
      sizeof(T) <= 32 && (std::is_trivially_copyable_v<T> || kBytesValue<T>),
      "cooperative_groups collectives take trivially copyable values of at most 32 bytes");
  // Values over 8 bytes travel by address (CollectiveCall::wide_bytes); the trace holds a hash.
  constexpr bool wide = sizeof(T) > 8;
  T result{};
  const uint64_t bits = wide ? reinterpret_cast<uint64_t>(&in) : carried_bits(in);
  const emu::CollectiveCall call =
      meet(g, line, EventKind::Collective, op, what, resolve, bits, arg, shared_arg,
           wide ? &result : nullptr, wide ? uint32_t(sizeof(T)) : 0);
  if constexpr (!wide) result = carried_value<T>(call.out);
  if (out2) *out2 = call.out2;
  if (!call.traced || !traced) return result;
  Event e = group_event(EventKind::Collective, g, line);
  e.time = call.arrive_time;
  e.op = op;
  e.a = to_bits(in);
  e.b = to_bits(result);
  e.extra = out2 ? uint32_t(call.out2) : extra;  // match_all: the predicate it returned
  e.value_type = value_type_of<T>();
  emu::record(e);
  return result;
}

// [SECTION] Resolvers of the warp collectives: values move between members by rank.
//
// A warp operation waits only for the members that have not exited (sm_70+: "all non-exited
// threads named in mask must execute the same intrinsic"), so by_rank holds null for members that
// exited, and for the lanes a partial tile lacks. Their values are undefined on a GPU: a resolver
// that needs one stops the launch with a report instead of inventing it.

[[noreturn, gnu::cold]] inline void fault_missing_member(
    std::span<emu::CollectiveCall* const> by_rank, size_t rank) {
  const emu::CollectiveCall* any = nullptr;
  for (auto* c : by_rank) any = any ? any : c;
  emu::fault(std::string(any->what) + " reads the value of rank " + std::to_string(rank) +
                 " of a group of " + std::to_string(by_rank.size()) +
                 ", a thread that has exited or that the block does not have (the last tile of a "
                 "block whose size the tile does not divide): on a GPU that value is undefined",
             any->line);
}

// The input of the member of rank `rank`, which must be there.
inline uint64_t input_of(std::span<emu::CollectiveCall* const> by_rank, size_t rank) {
  if (const emu::CollectiveCall* c = by_rank[rank]) return c->in;
  fault_missing_member(by_rank, rank);
}

// shfl(var, src): the source rank wraps within the group, as the hardware does within a tile.
inline void resolve_shfl(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (auto* c : by_rank)
    if (c) c->out = input_of(by_rank, c->arg % n);
}
// shfl_down / shfl_up / shfl_xor: a source outside the group leaves the caller's own value.
inline void resolve_shfl_down(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (size_t i = 0; i < n; ++i) {
    if (!by_rank[i]) continue;
    const uint64_t src = i + by_rank[i]->arg;
    by_rank[i]->out = src < n ? input_of(by_rank, src) : by_rank[i]->in;
  }
}
inline void resolve_shfl_up(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (size_t i = 0; i < n; ++i) {
    if (!by_rank[i]) continue;
    const uint64_t delta = by_rank[i]->arg;
    by_rank[i]->out = i >= delta ? input_of(by_rank, i - delta) : by_rank[i]->in;
  }
}
inline void resolve_shfl_xor(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (size_t i = 0; i < n; ++i) {
    if (!by_rank[i]) continue;
    const uint64_t src = i ^ by_rank[i]->arg;
    by_rank[i]->out = src < n ? input_of(by_rank, src) : by_rank[i]->in;
  }
}
// Ballot by rank; any() and all() are read from it. Groups above 32 threads (multi-warp tiles)
// only use any/all, which need just "none" / "every" and are kept in out2. Missing members vote
// 0, so all() over a group with missing members is false (cooperative_groups compares the ballot
// with the group's whole mask).
inline void resolve_vote(std::span<emu::CollectiveCall* const> by_rank) {
  uint64_t ballot = 0, count = 0;
  for (size_t i = 0; i < by_rank.size(); ++i)
    if (by_rank[i] && by_rank[i]->in) {
      if (i < 64) ballot |= 1ull << i;
      ++count;
    }
  const uint64_t every = count == by_rank.size();
  for (auto* c : by_rank) {
    if (!c) continue;
    c->out = ballot;
    c->out2 = (count != 0) | (every << 1);
  }
}
// match_any: the members holding the same bits; match_all: everyone if all agree (out2: pred).
inline void resolve_match_any(std::span<emu::CollectiveCall* const> by_rank) {
  for (auto* c : by_rank) {
    if (!c) continue;
    uint64_t mask = 0;
    for (size_t j = 0; j < by_rank.size(); ++j)
      if (by_rank[j] && by_rank[j]->in == c->in) mask |= 1ull << j;
    c->out = mask;
  }
}
inline void resolve_match_all(std::span<emu::CollectiveCall* const> by_rank) {
  bool same = true;
  const emu::CollectiveCall* first = nullptr;
  for (auto* c : by_rank) {
    if (!c) continue;
    first = first ? first : c;
    same = same && c->in == first->in;
  }
  for (auto* c : by_rank) {
    if (!c) continue;
    c->out = same ? low_mask(uint32_t(by_rank.size())) : 0;
    c->out2 = same;
  }
}

}  // namespace coop::cg::detail
