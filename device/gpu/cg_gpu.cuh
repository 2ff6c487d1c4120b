// coop::cg under nvcc: thin wrappers over cooperative_groups that record every call.
// The real group object does the work; the wrapper adds the trace identity (kind, block-unique
// id, meta rank) and writes events through recorder.cuh.
//
// Index
//   [SECTION] Recording helpers
//   [SECTION] Group handles
//   [SECTION] Partitions
//   [SECTION] Collectives: reduce
//   [SECTION] Atomics and traced memory
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cuda/std/type_traits>

#include "device/coop/operators.hpp"
#include "device/gpu/recorder.cuh"

namespace coop {
namespace cg {
namespace real = ::cooperative_groups;

namespace detail {

// [SECTION] Recording helpers

__device__ __forceinline__ Event group_event(EventKind kind, GroupKind group, uint32_t id,
                                             uint32_t rank, uint32_t size, int line) {
  Event e{};
  e.kind = kind;
  e.group_kind = group;
  e.group_id = id;
  e.rank = rank;
  e.group_size = size;
  e.line = uint16_t(line);
  e.time = gpu::global_timer();
  return e;
}

// What the recorder knows about a group beyond what cooperative_groups exposes.
struct TraceId {
  GroupKind kind;
  uint32_t id;
  uint32_t meta_rank;
  uint32_t meta_size;
};

__device__ __forceinline__ void record_create(const TraceId& t, uint32_t rank, uint32_t size,
                                              int line) {
  if (!gpu::tracing()) return;
  Event e = group_event(EventKind::GroupCreate, t.kind, t.id, rank, size, line);
  e.extra = pack_meta(t.meta_rank, t.meta_size);
  gpu::record(e);
}

// Number of threads in a group. cooperative_groups 13.0 declares thread_group::num_threads() but
// never defines it (ptxas reports an unresolved extern), so the runtime-typed group uses size().
template <class Group>
__device__ __forceinline__ unsigned long long count_of(const Group& g) {
  return g.num_threads();
}
__device__ __forceinline__ unsigned long long count_of(const real::thread_group& g) {
  return g.size();
}

template <class Group>
__device__ __forceinline__ void traced_sync(const Group& g, const TraceId& t, int line) {
  if (!gpu::tracing()) {
    g.sync();
    return;
  }
  const uint64_t arrive = gpu::global_timer();
  g.sync();
  Event e = group_event(EventKind::Barrier, t.kind, t.id, uint32_t(g.thread_rank()),
                        uint32_t(count_of(g)), line);
  e.time = arrive;
  e.b = gpu::global_timer();
  gpu::record(e);
}

template <class T>
__device__ __forceinline__ void record_collective(const TraceId& t, uint32_t rank, uint32_t size,
                                                  int line, Op op, T in, T out, uint32_t extra) {
  if (!gpu::tracing()) return;
  Event e = group_event(EventKind::Collective, t.kind, t.id, rank, size, line);
  e.op = op;
  e.a = to_bits(in);
  e.b = to_bits(out);
  e.extra = extra;
  e.value_type = value_type_of<T>();
  gpu::record(e);
}

__device__ __forceinline__ uint32_t block_rank_of_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

}  // namespace detail

// [SECTION] Group handles

class thread_group {
 public:
  __device__ unsigned long long thread_rank() const { return g_.thread_rank(); }
  __device__ unsigned long long num_threads() const { return g_.size(); }
  __device__ unsigned long long size() const { return g_.size(); }
  __device__ bool is_valid() const { return g_.size() > 0; }
  __device__ void sync(int line = __builtin_LINE()) const { detail::traced_sync(g_, t_, line); }

  __device__ const real::thread_group& real_group() const { return g_; }
  __device__ const detail::TraceId& trace_id() const { return t_; }
  __device__ thread_group(const real::thread_group& g, const detail::TraceId& t) : g_(g), t_(t) {}

 protected:
  real::thread_group g_;
  detail::TraceId t_;
};

class thread_block {
 public:
  __device__ static dim3 thread_index() { return real::this_thread_block().thread_index(); }
  __device__ static dim3 dim_threads() { return real::this_thread_block().dim_threads(); }
  __device__ static dim3 group_index() { return real::this_thread_block().group_index(); }
  __device__ static dim3 group_dim() { return real::this_thread_block().group_dim(); }
  __device__ unsigned int thread_rank() const { return b_.thread_rank(); }
  __device__ unsigned int num_threads() const { return b_.num_threads(); }
  __device__ unsigned int size() const { return b_.num_threads(); }
  __device__ bool is_valid() const { return true; }
  __device__ void sync(int line = __builtin_LINE()) const { detail::traced_sync(b_, t_, line); }
  __device__ operator thread_group() const { return thread_group(b_, t_); }  // NOLINT

  __device__ const real::thread_block& real_group() const { return b_; }
  __device__ const detail::TraceId& trace_id() const { return t_; }
  __device__ explicit thread_block(const real::thread_block& b)
      : b_(b),
        t_{GroupKind::Block, blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z), 0, 1} {}

 private:
  real::thread_block b_;
  detail::TraceId t_;
};

__device__ __forceinline__ thread_block this_thread_block(int line = __builtin_LINE()) {
  thread_block b(real::this_thread_block());
  detail::record_create(b.trace_id(), b.thread_rank(), b.num_threads(), line);
  return b;
}

class grid_group {
 public:
  __device__ unsigned long long thread_rank() const { return g_.thread_rank(); }
  __device__ unsigned long long num_threads() const { return g_.num_threads(); }
  __device__ unsigned long long size() const { return g_.num_threads(); }
  __device__ bool is_valid() const { return g_.is_valid(); }
  __device__ static unsigned long long block_rank() { return real::grid_group::block_rank(); }
  __device__ static unsigned long long num_blocks() { return real::grid_group::num_blocks(); }
  __device__ static dim3 block_index() { return real::grid_group::block_index(); }
  __device__ static dim3 dim_blocks() { return real::grid_group::dim_blocks(); }
  __device__ void sync(int line = __builtin_LINE()) const {
    if (!g_.is_valid()) __trap();  // the launch path refuses this before it can happen
    detail::traced_sync(g_, t_, line);
  }
  __device__ operator thread_group() const { return thread_group(g_, t_); }  // NOLINT
  __device__ const detail::TraceId& trace_id() const { return t_; }
  __device__ explicit grid_group(const real::grid_group& g) : g_(g), t_{GroupKind::Grid, 0, 0, 1} {}

 private:
  real::grid_group g_;
  detail::TraceId t_;
};

__device__ __forceinline__ grid_group this_grid(int line = __builtin_LINE()) {
  grid_group g(real::this_grid());
  detail::record_create(g.trace_id(), uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line);
  return g;
}

template <unsigned Size, class ParentT = void>
class thread_block_tile {
 public:
  using real_tile = real::thread_block_tile<Size, void>;
  __device__ static constexpr unsigned int num_threads() { return Size; }
  __device__ static constexpr unsigned int size() { return Size; }
  __device__ unsigned int thread_rank() const { return t_real.thread_rank(); }
  __device__ unsigned int meta_group_rank() const { return t_real.meta_group_rank(); }
  __device__ unsigned int meta_group_size() const { return t_real.meta_group_size(); }
  __device__ bool is_valid() const { return true; }
  __device__ void sync(int line = __builtin_LINE()) const { detail::traced_sync(t_real, t_, line); }
  __device__ operator thread_group() const { return thread_group(t_real, t_); }  // NOLINT

  template <class OtherParent>
  __device__ thread_block_tile(const thread_block_tile<Size, OtherParent>& o)  // NOLINT
      : t_real(o.t_real), t_(o.t_) {}
  __device__ thread_block_tile(const real_tile& t, const detail::TraceId& id) : t_real(t), t_(id) {}

#define COOP_TILE_SHUFFLE(NAME, OP, ARG_T)                                                       \
  template <class T>                                                                             \
  __device__ T NAME(T var, ARG_T arg, int line = __builtin_LINE()) const {                      \
    const T out = t_real.NAME(var, arg);                                                         \
    detail::record_collective(t_, thread_rank(), Size, line, Op::OP, var, out, uint32_t(arg));   \
    return out;                                                                                  \
  }
  COOP_TILE_SHUFFLE(shfl, Shfl, int)
  COOP_TILE_SHUFFLE(shfl_down, ShflDown, unsigned int)
  COOP_TILE_SHUFFLE(shfl_up, ShflUp, unsigned int)
  COOP_TILE_SHUFFLE(shfl_xor, ShflXor, unsigned int)
#undef COOP_TILE_SHUFFLE

  __device__ bool any(int predicate, int line = __builtin_LINE()) const {
    const bool out = t_real.any(predicate);
    detail::record_collective(t_, thread_rank(), Size, line, Op::Any, uint32_t(predicate != 0),
                              uint32_t(out), 0u);
    return out;
  }
  __device__ bool all(int predicate, int line = __builtin_LINE()) const {
    const bool out = t_real.all(predicate);
    detail::record_collective(t_, thread_rank(), Size, line, Op::All, uint32_t(predicate != 0),
                              uint32_t(out), 0u);
    return out;
  }
  __device__ unsigned int ballot(int predicate, int line = __builtin_LINE()) const {
    const unsigned int out = t_real.ballot(predicate);
    detail::record_collective(t_, thread_rank(), Size, line, Op::Ballot, uint32_t(predicate != 0),
                              out, 0u);
    return out;
  }

  __device__ const real_tile& real_group() const { return t_real; }
  __device__ const detail::TraceId& trace_id() const { return t_; }

  real_tile t_real;
  detail::TraceId t_;
};

// [SECTION] Partitions

__device__ __forceinline__ thread_group tiled_partition(const thread_group& parent,
                                                        unsigned int tile_size,
                                                        int line = __builtin_LINE()) {
  const real::thread_group g = real::tiled_partition(parent.real_group(), tile_size);
  const uint32_t block_rank = detail::block_rank_of_thread();
  const uint32_t block_threads = blockDim.x * blockDim.y * blockDim.z;
  const detail::TraceId id{GroupKind::Tile, block_rank / tile_size, block_rank / tile_size,
                           (block_threads + tile_size - 1) / tile_size};
  detail::record_create(id, uint32_t(g.thread_rank()), uint32_t(g.size()), line);
  return thread_group(g, id);
}

__device__ __forceinline__ thread_group tiled_partition(const thread_block& parent,
                                                        unsigned int tile_size,
                                                        int line = __builtin_LINE()) {
  return tiled_partition(thread_group(parent), tile_size, line);
}

template <unsigned Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent,
                                                            int line = __builtin_LINE()) {
  const auto t = real::tiled_partition<Size>(parent.real_group());
  const uint32_t block_rank = detail::block_rank_of_thread();
  const detail::TraceId id{GroupKind::Tile, block_rank / Size, t.meta_group_rank(),
                           t.meta_group_size()};
  detail::record_create(id, t.thread_rank(), Size, line);
  return thread_block_tile<Size, ParentT>(typename thread_block_tile<Size, ParentT>::real_tile(t), id);
}

// [SECTION] Collectives: reduce

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
}  // namespace detail

template <class T, unsigned Size, class ParentT, class Fn>
__device__ T reduce(const thread_block_tile<Size, ParentT>& tile, T value, Fn,
                    int line = __builtin_LINE()) {
  const T out = real::reduce(tile.real_group(), value, typename detail::real_op<Fn>::type());
  detail::record_collective(tile.trace_id(), tile.thread_rank(), Size, line, Op::Reduce, value, out,
                            uint32_t(Fn::op));
  return out;
}

}  // namespace cg

// [SECTION] Atomics and traced memory

namespace detail {

__device__ __forceinline__ void set_address(Event& e, const void* p) {
  if (__isShared(p)) {
    e.address = static_cast<uint64_t>(__cvta_generic_to_shared(p));
    e.flags |= kFlagShared;
  } else {
    e.address = reinterpret_cast<uint64_t>(p);
  }
}

__device__ __forceinline__ Event memory_event(EventKind kind, Op op, const void* p, int line) {
  Event e{};
  e.kind = kind;
  e.op = op;
  e.line = uint16_t(line);
  e.time = gpu::global_timer();
  e.group_kind = GroupKind::Thread;
  e.group_size = 1;
  set_address(e, p);
  return e;
}

template <class T>
__device__ __forceinline__ void record_atomic(Op op, const T* address, T operand, T old, int line) {
  if (!gpu::tracing()) return;
  Event e = memory_event(EventKind::Atomic, op, address, line);
  e.a = to_bits(operand);
  e.b = to_bits(old);
  e.value_type = value_type_of<T>();
  e.flags |= kFlagNondeterministic;
  gpu::record(e);
}

template <class T>
using same_t = typename ::cuda::std::type_identity<T>::type;

}  // namespace detail

#define COOP_ATOMIC(NAME, OP)                                                           \
  template <class T>                                                                    \
  __device__ T NAME(T* address, detail::same_t<T> val, int line = __builtin_LINE()) {   \
    const T old = ::NAME(address, val);                                                 \
    detail::record_atomic(Op::OP, address, val, old, line);                             \
    return old;                                                                         \
  }
COOP_ATOMIC(atomicAdd, AtomicAdd)
COOP_ATOMIC(atomicSub, AtomicSub)
COOP_ATOMIC(atomicMin, AtomicMin)
COOP_ATOMIC(atomicMax, AtomicMax)
COOP_ATOMIC(atomicExch, AtomicExch)
#undef COOP_ATOMIC

template <class T>
__device__ T atomicCAS(T* address, detail::same_t<T> compare, detail::same_t<T> val,
                       int line = __builtin_LINE()) {
  const T old = ::atomicCAS(address, compare, val);
  detail::record_atomic(Op::AtomicCas, address, val, old, line);
  return old;
}

template <class T>
class traced_ref {
 public:
  __device__ traced_ref(T& ref, int line) : p_(&ref), line_(line) {}
  __device__ operator T() const {  // NOLINT
    const T value = *const_cast<const volatile T*>(p_);
    if (gpu::tracing()) {
      Event e = detail::memory_event(EventKind::Load, Op::None, p_, line_);
      e.b = to_bits(value);
      e.value_type = value_type_of<T>();
      gpu::record(e);
    }
    return value;
  }
  __device__ const traced_ref& operator=(T value) const {
    *const_cast<volatile T*>(p_) = value;
    if (gpu::tracing()) {
      Event e = detail::memory_event(EventKind::Store, Op::None, p_, line_);
      e.a = to_bits(value);
      e.value_type = value_type_of<T>();
      gpu::record(e);
    }
    return *this;
  }

 private:
  T* p_;
  int line_;
};

template <class T>
__device__ traced_ref<T> traced(T& ref, int line = __builtin_LINE()) {
  return traced_ref<T>(ref, line);
}

__device__ __forceinline__ void __syncthreads(int line = __builtin_LINE()) {  // NOLINT
  const cg::detail::TraceId id{GroupKind::Block,
                               blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z), 0, 1};
  cg::detail::traced_sync(::cooperative_groups::this_thread_block(), id, line);
}

}  // namespace coop
