// Emulated coop::cg, part 3: groups that live inside warps (coalesced_group, thread_block_tile
// of 1 to 32 threads, this_thread()) and multi-warp tiles (64 to 512 threads), with their
// collectives.
// Values move by rank in the group, as cooperative_groups defines them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "device/emu/cg/groups.hpp"

namespace coop::cg {
namespace detail {

// Collectives every warp-level group has (shfl_xor only tiles have). Lanes of one group may call
// them from different lines (sm_70+ independent thread scheduling); they still meet as one call.
class warp_collectives : public thread_group {
 protected:
  warp_collectives(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : thread_group(ref, meta_rank, meta_size) {}

  template <class T>
  T shfl_rank(T var, uint32_t src, int line) const {
    return collective(ref_, line, Op::Shfl, "shfl()", var, resolve_shfl, src, 0, src);
  }
  template <class T>
  T shfl_by(Op op, T var, uint32_t delta, int line) const {
    const bool down = op == Op::ShflDown, up = op == Op::ShflUp;
    return collective(ref_, line, op, down ? "shfl_down()" : up ? "shfl_up()" : "shfl_xor()", var,
                      down ? resolve_shfl_down : up ? resolve_shfl_up : resolve_shfl_xor, delta,
                      delta, delta);
  }
  uint32_t vote(Op op, int predicate, int line) const { return vote_on(ref_, op, predicate, line); }
  template <class T>
  unsigned int match(T value, int* pred, int line) const {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "match_any/match_all take 4- or 8-byte values");
    uint64_t all_equal = 0;
    const auto out = collective<uint64_t>(
        ref_, line, pred ? Op::MatchAll : Op::MatchAny, pred ? "match_all()" : "match_any()",
        to_bits(value), pred ? resolve_match_all : resolve_match_any, 0, 0, 0, &all_equal);
    if (pred) *pred = int(all_equal);
    return unsigned(out);
  }

 public:
  // any/all/ballot of any group; the recorded output is what the call returns.
  static uint32_t vote_on(const emu::GroupRef& g, Op op, int predicate, int line) {
    const emu::Resolver r = op == Op::Any ? resolve_any : op == Op::All ? resolve_all : resolve_ballot;
    const char* what = op == Op::Any ? "any()" : op == Op::All ? "all()" : "ballot()";
    return collective<uint32_t>(g, line, op, what, predicate ? 1u : 0u, r);
  }

 private:
  static void resolve_any(std::span<emu::CollectiveCall* const> by_rank) {
    resolve_vote(by_rank);
    for (auto* c : by_rank)
      if (c) c->out = c->out2 & 1;
  }
  static void resolve_all(std::span<emu::CollectiveCall* const> by_rank) {
    resolve_vote(by_rank);
    for (auto* c : by_rank)
      if (c) c->out = c->out2 >> 1;
  }
  static void resolve_ballot(std::span<emu::CollectiveCall* const> by_rank) {
    resolve_vote(by_rank);
  }
};

}  // namespace detail

// The threads of a warp that run together (cooperative_groups::coalesced_group), or a labeled,
// binary or stride partition of a warp-level group.
class coalesced_group : public detail::warp_collectives {
 public:
  unsigned int num_threads() const { return ref_.size; }
  unsigned int size() const { return ref_.size; }
  unsigned int thread_rank() const { return ref_.rank; }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  void sync(int line = __builtin_LINE()) const { detail::barrier(ref_, line, "sync()"); }

  template <class T>
  T shfl(T var, int src_rank, int line = __builtin_LINE()) const {
    return shfl_rank(var, uint32_t(src_rank), line);
  }
  template <class T>
  T shfl_down(T var, unsigned int delta, int line = __builtin_LINE()) const {
    return shfl_by(Op::ShflDown, var, delta, line);
  }
  template <class T>
  T shfl_up(T var, int delta, int line = __builtin_LINE()) const {
    return shfl_by(Op::ShflUp, var, uint32_t(delta), line);
  }
  int any(int predicate, int line = __builtin_LINE()) const { return int(vote(Op::Any, predicate, line)); }
  int all(int predicate, int line = __builtin_LINE()) const { return int(vote(Op::All, predicate, line)); }
  unsigned int ballot(int predicate, int line = __builtin_LINE()) const {
    return vote(Op::Ballot, predicate, line);
  }
  template <class T>
  unsigned int match_any(T value, int line = __builtin_LINE()) const {
    return match(value, nullptr, line);
  }
  template <class T>
  unsigned int match_all(T value, int& pred, int line = __builtin_LINE()) const {
    return match(value, &pred, line);
  }

 private:
  coalesced_group(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : warp_collectives(ref, meta_rank, meta_size) {}
  friend struct detail::access;
};

// The calling thread's warp-mates that execute this call with it: the lanes the scheduler
// releases together at this step point (the active mask, as __activemask() reports it).
inline coalesced_group coalesced_threads(int line = __builtin_LINE()) {
  // Op::Ballot only names the step site; no vote happens here.
  const emu::PlainStep step = emu::step_plain(uint16_t(line), Op::Ballot);
  auto g = detail::access::make<coalesced_group>(
      detail::warp_group(GroupKind::Coalesced, step.mask, step.mask));
  detail::record_create(g.trace_ref(), 0, 1, line);
  return g;
}

// A tile of Size threads (cooperative_groups::thread_block_tile). Up to 32 threads a tile lives
// in one warp and has the warp collectives; 64 to 512 threads it spans warps and has shfl, any,
// all, sync and the reduce/scan collectives, as in cooperative_groups.
template <unsigned Size, class ParentT = void>
class thread_block_tile
    : public std::conditional_t<(Size <= 32), detail::warp_collectives, detail::handle> {
  static_assert(Size > 0 && (Size & (Size - 1)) == 0 && Size <= 512,
                "tile size must be a power of two from 1 to 512");
  using base = std::conditional_t<(Size <= 32), detail::warp_collectives, detail::handle>;

 public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  // Static, as in cooperative_groups: a tile's members are ranked by their rank in the block.
  static unsigned int thread_rank() { return emu::this_thread().thread_rank % Size; }
  unsigned int meta_group_rank() const { return this->meta_rank_; }
  unsigned int meta_group_size() const { return this->meta_size_; }
  void sync(int line = __builtin_LINE()) const { detail::barrier(this->ref_, line, "sync()"); }

  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>& other)  // NOLINT
      : base(other.trace_ref(), other.trace_meta_rank(), other.trace_meta_size()) {}

  // Past 32 threads a tile's shfl is a broadcast: CUDA's implementation has the source rank's
  // warp publish one value that the other warps wait for, so every member must name the same
  // source (with different ones each warp waits for another, for ever, on a GPU). The emulator
  // holds the members to it and says so instead of hanging.
  template <class T>
  T shfl(T var, int src_rank, int line = __builtin_LINE()) const {
    static_assert(Size <= 32 || sizeof(T) <= 8,
                  "Collectives with tiles larger than 32 threads are limited to types of at most 8 "
                  "bytes");
    constexpr bool broadcast = Size > 32;
    return detail::collective(
        this->ref_, line, Op::Shfl,
        broadcast ? "shfl() on a tile of more than 32 threads (one source rank for all)" : "shfl()",
        var, detail::resolve_shfl, uint32_t(src_rank), broadcast ? uint64_t(src_rank) : 0,
        uint32_t(src_rank));
  }
  template <class T>
  T shfl_down(T var, unsigned int delta, int line = __builtin_LINE()) const
    requires(Size <= 32)
  {
    return this->shfl_by(Op::ShflDown, var, delta, line);
  }
  template <class T>
  T shfl_up(T var, unsigned int delta, int line = __builtin_LINE()) const
    requires(Size <= 32)
  {
    return this->shfl_by(Op::ShflUp, var, delta, line);
  }
  template <class T>
  T shfl_xor(T var, unsigned int lane_mask, int line = __builtin_LINE()) const
    requires(Size <= 32)
  {
    return this->shfl_by(Op::ShflXor, var, lane_mask, line);
  }
  int any(int predicate, int line = __builtin_LINE()) const {
    return int(detail::warp_collectives::vote_on(this->ref_, Op::Any, predicate, line));
  }
  int all(int predicate, int line = __builtin_LINE()) const {
    return int(detail::warp_collectives::vote_on(this->ref_, Op::All, predicate, line));
  }
  unsigned int ballot(int predicate, int line = __builtin_LINE()) const
    requires(Size <= 32)
  {
    return detail::warp_collectives::vote_on(this->ref_, Op::Ballot, predicate, line);
  }
  template <class T>
  unsigned int match_any(T value, int line = __builtin_LINE()) const
    requires(Size <= 32)
  {
    return this->match(value, nullptr, line);
  }
  template <class T>
  unsigned int match_all(T value, int& pred, int line = __builtin_LINE()) const
    requires(Size <= 32)
  {
    return this->match(value, &pred, line);
  }

 private:
  thread_block_tile(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : base(ref, meta_rank, meta_size) {}
  friend struct detail::access;
  template <unsigned, class>
  friend class thread_block_tile;
};

// The calling thread alone, as a tile of one (cooperative_groups::this_thread()): CUDA makes it
// the only tile of a one-thread parent, so its meta group rank and size are 0 and 1.
inline thread_block_tile<1> this_thread(int line = __builtin_LINE()) {
  auto me = detail::access::make<thread_block_tile<1>>(detail::tile_group(1, 1), 0u, 1u);
  detail::record_create(me.trace_ref(), 0, 1, line);
  return me;
}

namespace detail {

template <class Group>
struct is_tile : std::false_type {};
template <unsigned TileSize, class Parent>
struct is_tile<thread_block_tile<TileSize, Parent>> : std::true_type {};

// CUDA's reduce and scans take only groups that are one tile: a thread_block_tile<N> or a
// coalesced_group. A thread_block, a grid or a runtime-sized tile (thread_group) is refused at
// compile time, with CUDA's words.
template <class Group>
inline constexpr bool tile_collective_group =
    std::is_same_v<Group, coalesced_group> || is_tile<Group>::value;

}  // namespace detail

}  // namespace coop::cg
