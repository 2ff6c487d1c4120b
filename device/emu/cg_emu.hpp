// coop::cg for the host compiler: the traced Cooperative Groups API running on the emulator.
// Same names and semantics as cooperative_groups; every call records what a view needs.
//
// Index
//   [SECTION] Recording helpers
//   [SECTION] Group handles: thread_group, thread_block, grid_group, tiles, coalesced groups
//   [SECTION] Partitions
//   [SECTION] Collectives: reduce
//   [SECTION] Atomics and traced memory
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "device/emu/emu_api.hpp"
#include "device/emu/kernel_env.hpp"
#include "device/coop/operators.hpp"
#include "device/trace/event.hpp"
#include "device/trace/value.hpp"

namespace coop {
namespace cg {
namespace detail {

// [SECTION] Recording helpers

inline uint64_t group_key(GroupKind kind, uint32_t a, uint32_t b) {
  return (uint64_t(kind) << 56) ^ (uint64_t(a) << 32) ^ b;
}

inline Event group_event(EventKind kind, const emu::GroupRef& g, int line) {
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

inline void record_create(const emu::GroupRef& g, uint32_t meta_rank, uint32_t meta_size,
                          int line) {
  Event e = group_event(EventKind::GroupCreate, g, line);
  e.extra = pack_meta(meta_rank, meta_size);
  emu::record(e);
}

inline void barrier(const emu::GroupRef& g, int line, const char* what) {
  emu::CollectiveCall call;
  call.group = g;
  call.line = uint16_t(line);
  call.kind = EventKind::Barrier;
  call.what = what;
  emu::rendezvous(call);
  Event e = group_event(EventKind::Barrier, g, line);
  e.time = call.arrive_time;
  e.b = call.depart_time;
  emu::record(e);
}

// Runs a collective on `g`: every member passes `in`; the resolver computes each member's result.
template <class T>
T collective(const emu::GroupRef& g, int line, Op op, const char* what, T in, emu::Resolver resolve,
             uint64_t arg = 0, uint64_t shared_arg = 0, uint32_t extra = 0) {
  static_assert(sizeof(T) <= 8, "traced collectives carry values of at most 8 bytes");
  emu::CollectiveCall call;
  call.group = g;
  call.line = uint16_t(line);
  call.op = op;
  call.kind = EventKind::Collective;
  call.what = what;
  call.resolve = resolve;
  call.in = to_bits(in);
  call.arg = arg;
  call.shared_arg = shared_arg;
  emu::rendezvous(call);
  Event e = group_event(EventKind::Collective, g, line);
  e.time = call.arrive_time;
  e.op = op;
  e.a = call.in;
  e.b = call.out;
  e.extra = extra;
  e.value_type = value_type_of<T>();
  emu::record(e);
  return from_bits<T>(call.out);
}

// Rank of the lane among the set bits of `mask` below it.
inline uint32_t rank_in_mask(uint32_t mask, uint32_t lane) {
  return uint32_t(std::popcount(mask & ((1u << lane) - 1)));
}

}  // namespace detail

// [SECTION] Group handles

// A group of any kind, known at run time (cooperative_groups::thread_group).
class thread_group {
 public:
  unsigned long long thread_rank() const { return ref_.rank; }
  unsigned long long num_threads() const { return ref_.size; }
  unsigned long long size() const { return ref_.size; }
  bool is_valid() const { return ref_.size > 0; }
  void sync(int line = __builtin_LINE()) const { detail::barrier(ref_, line, "sync()"); }

  // coop's own: what the recorder knows about this group (cooperative_groups' thread_group has
  // no meta_group_rank(); tiles keep theirs here for the trace).
  const emu::GroupRef& trace_ref() const { return ref_; }
  uint32_t trace_meta_rank() const { return meta_rank_; }
  uint32_t trace_meta_size() const { return meta_size_; }

 protected:
  thread_group() = default;
  thread_group(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : ref_(ref), meta_rank_(meta_rank), meta_size_(meta_size) {}
  emu::GroupRef ref_;
  uint32_t meta_rank_ = 0, meta_size_ = 1;

  friend thread_group make_thread_group(const emu::GroupRef&, uint32_t, uint32_t);
};

inline thread_group make_thread_group(const emu::GroupRef& ref, uint32_t meta_rank,
                                      uint32_t meta_size) {
  return thread_group(ref, meta_rank, meta_size);
}

// All threads of the calling block (cooperative_groups::thread_block).
class thread_block : public thread_group {
 public:
  static dim3 thread_index() { return emu::this_thread().thread_idx; }
  static dim3 dim_threads() { return emu::this_thread().block_dim; }
  static dim3 group_index() { return emu::this_thread().block_idx; }
  static dim3 group_dim() { return emu::this_thread().block_dim; }
  unsigned int thread_rank() const { return ref_.rank; }
  unsigned int num_threads() const { return ref_.size; }
  unsigned int size() const { return ref_.size; }

 private:
  thread_block() {
    const emu::ThreadInfo& t = emu::this_thread();
    ref_.kind = GroupKind::Block;
    ref_.id = t.block_rank;
    ref_.rank = t.thread_rank;
    ref_.size = t.block_threads;
    ref_.key = detail::group_key(GroupKind::Block, 0, 0);
  }
  friend thread_block this_thread_block(int line);
};

// Handle to the calling thread's block; records each thread's rank in it.
inline thread_block this_thread_block(int line = __builtin_LINE()) {
  thread_block b;
  detail::record_create(b.trace_ref(), 0, 1, line);
  return b;
}

// All threads of the grid (cooperative_groups::grid_group); sync() needs a cooperative launch.
class grid_group : public thread_group {
 public:
  unsigned long long thread_rank() const { return ref_.rank; }
  unsigned long long num_threads() const { return ref_.size; }
  unsigned long long size() const { return ref_.size; }
  bool is_valid() const { return emu::this_thread().cooperative; }
  static unsigned long long block_rank() { return emu::this_thread().block_rank; }
  static unsigned long long num_blocks() {
    const dim3 g = emu::this_thread().grid_dim;
    return uint64_t(g.x) * g.y * g.z;
  }
  static dim3 block_index() { return emu::this_thread().block_idx; }
  static dim3 dim_blocks() { return emu::this_thread().grid_dim; }
  void sync(int line = __builtin_LINE()) const {
    if (!is_valid())
      emu::fault("grid.sync() needs a cooperative launch (cudaLaunchCooperativeKernel); this "
                 "kernel was launched normally, so its blocks may not all be resident", uint16_t(line));
    detail::barrier(ref_, line, "grid.sync()");
  }

 private:
  grid_group() {
    const emu::ThreadInfo& t = emu::this_thread();
    ref_.kind = GroupKind::Grid;
    ref_.id = 0;
    ref_.rank = t.global_id;
    ref_.size = uint32_t(num_blocks() * t.block_threads);
    ref_.key = detail::group_key(GroupKind::Grid, 0, 0);
    ref_.launch_scope = true;
  }
  friend grid_group this_grid(int line);
};

inline grid_group this_grid(int line = __builtin_LINE()) {
  grid_group g;
  detail::record_create(g.trace_ref(), 0, 1, line);
  return g;
}

namespace detail {

// Shuffle resolvers: bits move between members by tile rank.
inline void resolve_shfl(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (auto* c : by_rank) c->out = by_rank[c->arg % n]->in;
}
inline void resolve_shfl_down(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t src = i + by_rank[i]->arg;
    by_rank[i]->out = src < n ? by_rank[src]->in : by_rank[i]->in;
  }
}
inline void resolve_shfl_up(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t delta = by_rank[i]->arg;
    by_rank[i]->out = i >= delta ? by_rank[i - delta]->in : by_rank[i]->in;
  }
}
inline void resolve_shfl_xor(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t src = i ^ by_rank[i]->arg;
    by_rank[i]->out = src < n ? by_rank[src]->in : by_rank[i]->in;
  }
}
inline void resolve_vote(std::span<emu::CollectiveCall* const> by_rank) {
  uint64_t ballot = 0;
  for (size_t i = 0; i < by_rank.size(); ++i)
    if (by_rank[i]->in) ballot |= 1ull << i;
  for (auto* c : by_rank) c->out = ballot;  // any/all/ballot all derive from the ballot
}

}  // namespace detail

// A tile of Size threads (cooperative_groups::thread_block_tile). Sizes up to 32 live in one
// warp and have warp collectives; 64 and 128 span warps.
template <unsigned Size, class ParentT = void>
class thread_block_tile : public thread_group {
  static_assert(Size > 0 && (Size & (Size - 1)) == 0 && Size <= 1024,
                "tile size must be a power of two");

 public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  unsigned int thread_rank() const { return ref_.rank; }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }

  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>& other)  // NOLINT
      : thread_group(other.trace_ref(), other.trace_meta_rank(), other.trace_meta_size()) {}

  template <class T>
  T shfl(T var, int src_rank, int line = __builtin_LINE()) const {
    return detail::collective(ref_, line, Op::Shfl, "shfl()", var, detail::resolve_shfl,
                              uint32_t(src_rank), 0, uint32_t(src_rank));
  }
  template <class T>
  T shfl_down(T var, unsigned int delta, int line = __builtin_LINE()) const {
    return detail::collective(ref_, line, Op::ShflDown, "shfl_down()", var,
                              detail::resolve_shfl_down, delta, delta, delta);
  }
  template <class T>
  T shfl_up(T var, unsigned int delta, int line = __builtin_LINE()) const {
    return detail::collective(ref_, line, Op::ShflUp, "shfl_up()", var, detail::resolve_shfl_up,
                              delta, delta, delta);
  }
  template <class T>
  T shfl_xor(T var, unsigned int mask, int line = __builtin_LINE()) const {
    return detail::collective(ref_, line, Op::ShflXor, "shfl_xor()", var,
                              detail::resolve_shfl_xor, mask, mask, mask);
  }
  bool any(int predicate, int line = __builtin_LINE()) const {
    const uint32_t ballot = vote(predicate, line, Op::Any, "any()");
    return ballot != 0;
  }
  bool all(int predicate, int line = __builtin_LINE()) const {
    const uint32_t ballot = vote(predicate, line, Op::All, "all()");
    return ballot == (Size >= 32 ? 0xffffffffu : ((1u << Size) - 1));
  }
  unsigned int ballot(int predicate, int line = __builtin_LINE()) const {
    return vote(predicate, line, Op::Ballot, "ballot()");
  }

  // coop's own: builds the tile handle of the calling thread (used by tiled_partition).
  static thread_block_tile make(uint32_t block_rank_of_thread, uint32_t meta_rank,
                                uint32_t meta_size) {
    emu::GroupRef ref;
    ref.kind = GroupKind::Tile;
    ref.id = block_rank_of_thread / Size;
    ref.rank = block_rank_of_thread % Size;
    ref.size = Size;
    ref.key = detail::group_key(GroupKind::Tile, Size, ref.id);
    if (Size <= 32) {
      const uint32_t lane = emu::this_thread().lane;
      const uint32_t base = lane & ~(Size - 1);
      ref.warp_mask = (Size == 32 ? 0xffffffffu : ((1u << Size) - 1)) << base;
    }
    return thread_block_tile(ref, meta_rank, meta_size);
  }

 private:
  thread_block_tile(const emu::GroupRef& ref, uint32_t meta_rank, uint32_t meta_size)
      : thread_group(ref, meta_rank, meta_size) {}
  uint32_t vote(int predicate, int line, Op op, const char* what) const {
    static_assert(Size <= 32, "vote functions need a tile of at most 32 threads");
    const uint64_t ballot = detail::collective<uint32_t>(ref_, line, op, what, predicate ? 1u : 0u,
                                                         detail::resolve_vote);
    return uint32_t(ballot);
  }
  template <unsigned, class>
  friend class thread_block_tile;
};

// [SECTION] Partitions

// Tiles of a runtime size (a power of two, at most 32) from a block: cooperative_groups'
// tiled_partition(parent, tilesz). Records each thread's rank, tile and meta rank.
inline thread_group tiled_partition(const thread_group& parent, unsigned int tile_size,
                                    int line = __builtin_LINE()) {
  if (tile_size == 0 || tile_size > 32 || (tile_size & (tile_size - 1)) != 0)
    emu::fault("tiled_partition(parent, " + std::to_string(tile_size) +
               "): the size must be a power of two from 1 to 32 (use tiled_partition<64> or "
               "<128> for larger tiles)", uint16_t(line));
  const emu::GroupRef& p = parent.trace_ref();
  if (p.kind != GroupKind::Block && p.kind != GroupKind::Tile)
    emu::fault("tiled_partition of this group kind is not emulated yet", uint16_t(line));
  const uint32_t block_rank = emu::this_thread().thread_rank;
  const uint32_t parent_size = p.size;
  const uint32_t base = p.rank & ~(tile_size - 1);
  emu::GroupRef ref;
  ref.kind = GroupKind::Tile;
  ref.id = block_rank / tile_size;
  ref.rank = p.rank % tile_size;
  ref.size = std::min(parent_size - base, tile_size);
  ref.key = detail::group_key(GroupKind::Tile, tile_size, ref.id);
  const uint32_t lane = emu::this_thread().lane;
  ref.warp_mask = (ref.size == 32 ? 0xffffffffu : ((1u << ref.size) - 1)) << (lane & ~(tile_size - 1));
  // As in cooperative_groups, meta ranks count tiles of the whole block.
  const uint32_t block_threads = emu::this_thread().block_threads;
  const uint32_t meta_rank = block_rank / tile_size;
  const uint32_t meta_size = (block_threads + tile_size - 1) / tile_size;
  thread_group tile = make_thread_group(ref, meta_rank, meta_size);
  detail::record_create(ref, meta_rank, meta_size, line);
  return tile;
}

// Tiles of a compile-time size from a block or from a larger tile.
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent,
                                                 int line = __builtin_LINE()) {
  const emu::GroupRef& p = parent.trace_ref();
  const uint32_t block_rank = emu::this_thread().thread_rank;
  if (p.size % Size != 0)
    emu::fault("tiled_partition<" + std::to_string(Size) + "> of a group of " +
               std::to_string(p.size) + " threads: the parent size must be a multiple of the tile size",
               uint16_t(line));
  const uint32_t meta_rank = uint32_t(p.rank / Size);
  const uint32_t meta_size = uint32_t(p.size / Size);
  auto tile = thread_block_tile<Size>::make(block_rank, meta_rank, meta_size);
  detail::record_create(tile.trace_ref(), meta_rank, meta_size, line);
  return thread_block_tile<Size, ParentT>(tile);
}

// [SECTION] Collectives: reduce

namespace detail {

// The xor butterfly cooperative_groups uses within a warp-sized tile, so floating-point sums
// come out bit-identical to the GPU's: at each step every member combines with rank ^ offset.
template <class T, class Fn>
void resolve_reduce(std::span<emu::CollectiveCall* const> by_rank) {
  const size_t n = by_rank.size();
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from_bits<T>(by_rank[i]->in);
  for (size_t offset = n / 2; offset > 0; offset /= 2) {
    std::vector<T> next(n);
    for (size_t i = 0; i < n; ++i) next[i] = Fn{}(v[i], v[i ^ offset]);
    v.swap(next);
  }
  for (size_t i = 0; i < n; ++i) by_rank[i]->out = to_bits(v[i]);
}

}  // namespace detail

// Reduction over a tile of at most 32 threads with one of the six operators.
template <class T, unsigned Size, class ParentT, class Fn>
T reduce(const thread_block_tile<Size, ParentT>& tile, T value, Fn fn, int line = __builtin_LINE()) {
  static_assert(Size <= 32, "reduce over tiles larger than a warp is not emulated yet");
  (void)fn;
  return detail::collective(tile.trace_ref(), line, Op::Reduce, "reduce()", value,
                            detail::resolve_reduce<T, Fn>, 0, uint64_t(Fn::op), uint32_t(Fn::op));
}

// [SECTION] Atomics and traced memory

}  // namespace cg

namespace detail {

// Fills the address fields of a memory event: shared memory as a block offset, global as is.
inline void set_address(Event& e, const void* p) {
  const int64_t off = emu::shared_offset(p);
  if (off >= 0) {
    e.address = uint64_t(off);
    e.flags |= kFlagShared;
  } else {
    e.address = reinterpret_cast<uint64_t>(p);
  }
}

inline Event memory_event(EventKind kind, Op op, const void* p, int line, uint64_t time) {
  Event e{};
  e.kind = kind;
  e.op = op;
  e.line = uint16_t(line);
  e.time = time;
  e.group_kind = GroupKind::Thread;
  e.group_size = 1;
  set_address(e, p);
  return e;
}

template <class T>
concept AtomicValue = std::is_same_v<T, int> || std::is_same_v<T, unsigned int> ||
                      std::is_same_v<T, unsigned long long> || std::is_same_v<T, long long> ||
                      std::is_same_v<T, float> || std::is_same_v<T, double>;

// One atomic read-modify-write, executed in lock-step with the warp's other lanes at this site.
template <class T, class Update>
T atomic_rmw(T* address, T operand, Op op, int line, Update update) {
  const emu::PlainStep step = emu::step_plain(uint16_t(line), op);
  std::atomic_ref<T> ref(*address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_relaxed)) {
  }
  Event e = memory_event(EventKind::Atomic, op, address, line, step.time);
  e.a = to_bits(operand);
  e.b = to_bits(old);
  e.value_type = value_type_of<T>();
  e.flags |= kFlagNondeterministic;
  emu::record(e);
  return old;
}

}  // namespace detail

// CUDA's atomic functions, traced. The operand is not deduced, so atomicAdd(unsigned*, 1) works
// as in CUDA.
template <detail::AtomicValue T>
T atomicAdd(T* address, std::type_identity_t<T> val, int line = __builtin_LINE()) {
  return detail::atomic_rmw(address, val, Op::AtomicAdd, line, [val](T old) { return T(old + val); });
}
template <detail::AtomicValue T>
T atomicSub(T* address, std::type_identity_t<T> val, int line = __builtin_LINE()) {
  return detail::atomic_rmw(address, val, Op::AtomicSub, line, [val](T old) { return T(old - val); });
}
template <detail::AtomicValue T>
T atomicMin(T* address, std::type_identity_t<T> val, int line = __builtin_LINE()) {
  return detail::atomic_rmw(address, val, Op::AtomicMin, line,
                            [val](T old) { return val < old ? val : old; });
}
template <detail::AtomicValue T>
T atomicMax(T* address, std::type_identity_t<T> val, int line = __builtin_LINE()) {
  return detail::atomic_rmw(address, val, Op::AtomicMax, line,
                            [val](T old) { return old < val ? val : old; });
}
template <detail::AtomicValue T>
T atomicExch(T* address, std::type_identity_t<T> val, int line = __builtin_LINE()) {
  return detail::atomic_rmw(address, val, Op::AtomicExch, line, [val](T) { return val; });
}
template <detail::AtomicValue T>
T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> val,
            int line = __builtin_LINE()) {
  return detail::atomic_rmw(address, val, Op::AtomicCas, line,
                            [compare, val](T old) { return old == compare ? val : old; });
}

// A traced plain (non-atomic) reference: reading it is a traced load, assigning a traced store.
// Race lessons use it so that `traced(s[0]) = traced(s[0]) + x` loses updates as on a GPU.
template <class T>
class traced_ref {
 public:
  traced_ref(T& ref, int line) : p_(&ref), line_(line) {}
  operator T() const {  // NOLINT: reads like the plain variable it stands for
    const emu::PlainStep step = emu::step_plain(uint16_t(line_), Op::None);
    std::remove_cv_t<T> value;
    __atomic_load(p_, &value, __ATOMIC_RELAXED);  // atomic on the host: racing blocks are not UB
    Event e = detail::memory_event(EventKind::Load, Op::None, p_, line_, step.time);
    e.b = to_bits(value);
    e.value_type = value_type_of<T>();
    emu::record(e);
    return value;
  }
  const traced_ref& operator=(T value) const {
    const emu::PlainStep step = emu::step_plain(uint16_t(line_), Op::AtomicStore);
    __atomic_store(p_, &value, __ATOMIC_RELAXED);
    Event e = detail::memory_event(EventKind::Store, Op::None, p_, line_, step.time);
    e.a = to_bits(value);
    e.value_type = value_type_of<T>();
    emu::record(e);
    return *this;
  }

 private:
  T* p_;
  int line_;
};

template <class T>
traced_ref<T> traced(T& ref, int line = __builtin_LINE()) {
  return traced_ref<T>(ref, line);
}

// __syncthreads(), traced as a barrier of the whole block.
inline void __syncthreads(int line = __builtin_LINE()) {  // NOLINT: CUDA's name
  emu::GroupRef g;
  const emu::ThreadInfo& t = emu::this_thread();
  g.kind = GroupKind::Block;
  g.id = t.block_rank;
  g.rank = t.thread_rank;
  g.size = t.block_threads;
  g.key = cg::detail::group_key(GroupKind::Block, 0, 0);
  cg::detail::barrier(g, line, "__syncthreads()");
}

}  // namespace coop
