// coop's atomics under nvcc, part 6: CUDA's atomic functions, cuda::atomic_ref and
// cuda::std::atomic_ref (as coop::cuda::..., so lesson code spells them as usual), traced plain
// loads and stores, and __syncthreads(). Atomics record the address, operand and old value (the
// order they landed in), plus scope and memory order for atomic_ref.
#pragma once

#include <cuda/atomic>
#include <cuda/std/type_traits>

#include "device/coop/atomic_flags.hpp"
#include "device/gpu/cg/groups.cuh"

namespace coop {
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
__device__ __forceinline__ void record_atomic(Op op, const T* address, T operand, T old, int line,
                                              uint16_t flags = 0) {
  if (!gpu::tracing()) return;
  Event e = memory_event(EventKind::Atomic, op, address, line);
  e.a = to_bits(operand);
  e.b = to_bits(old);
  e.value_type = value_type_of<T>();
  e.flags |= kFlagNondeterministic | flags;
  gpu::record(e);
}

template <class T>
using same_t = typename ::cuda::std::type_identity<T>::type;

}  // namespace detail

// CUDA's atomic functions with their _block and _system forms, each recorded with its scope's
// flag (device scope has none), as the emulator records them.
#define COOP_ATOMIC_AT(NAME, OP, FLAGS)                                               \
  template <class T>                                                                  \
  __device__ T NAME(T* address, detail::same_t<T> val, int line = __builtin_LINE()) { \
    const T old = ::NAME(address, val);                                               \
    detail::record_atomic(Op::OP, address, val, old, line, uint16_t(FLAGS));          \
    return old;                                                                       \
  }
#define COOP_ATOMIC(NAME, OP)                       \
  COOP_ATOMIC_AT(NAME, OP, 0)                       \
  COOP_ATOMIC_AT(NAME##_block, OP, kFlagScopeBlock) \
  COOP_ATOMIC_AT(NAME##_system, OP, kFlagScopeSystem)
COOP_ATOMIC(atomicAdd, AtomicAdd)
COOP_ATOMIC(atomicSub, AtomicSub)
COOP_ATOMIC(atomicMin, AtomicMin)
COOP_ATOMIC(atomicMax, AtomicMax)
COOP_ATOMIC(atomicExch, AtomicExch)
COOP_ATOMIC(atomicAnd, AtomicAnd)
COOP_ATOMIC(atomicOr, AtomicOr)
COOP_ATOMIC(atomicXor, AtomicXor)
COOP_ATOMIC(atomicInc, AtomicInc)
COOP_ATOMIC(atomicDec, AtomicDec)
#undef COOP_ATOMIC
#undef COOP_ATOMIC_AT

#define COOP_ATOMIC_CAS(NAME, FLAGS)                                                \
  template <class T>                                                                \
  __device__ T NAME(T* address, detail::same_t<T> compare, detail::same_t<T> val,   \
                    int line = __builtin_LINE()) {                                  \
    const T old = ::NAME(address, compare, val);                                    \
    detail::record_atomic(Op::AtomicCas, address, val, old, line, uint16_t(FLAGS)); \
    return old;                                                                     \
  }
COOP_ATOMIC_CAS(atomicCAS, 0)
COOP_ATOMIC_CAS(atomicCAS_block, kFlagScopeBlock)
COOP_ATOMIC_CAS(atomicCAS_system, kFlagScopeSystem)
#undef COOP_ATOMIC_CAS

namespace cuda {

using ::cuda::thread_scope;
using ::cuda::thread_scope_block;
using ::cuda::thread_scope_device;
using ::cuda::thread_scope_system;
using ::cuda::thread_scope_thread;
using ::cuda::memory_order;
using ::cuda::memory_order_acq_rel;
using ::cuda::memory_order_acquire;
using ::cuda::memory_order_consume;
using ::cuda::memory_order_relaxed;
using ::cuda::memory_order_release;
using ::cuda::memory_order_seq_cst;

namespace detail {
// A value plus the line of the expression it came from, for operators (+=, =) that cannot take
// a defaulted line parameter.
template <class T>
struct at_line {
  T value;
  int line;
  __device__ at_line(T v, int l = __builtin_LINE()) : value(v), line(l) {}  // NOLINT
};
}  // namespace detail

// cuda::atomic_ref, traced: each operation runs on ::cuda::atomic_ref and records op, operand,
// old value, scope and order.
template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref {
 public:
  __device__ explicit atomic_ref(T& ref) : r_(ref), p_(&ref) {}

  __device__ T load(memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const {
    const T v = r_.load(order);
    note(Op::AtomicLoad, T{}, v, order, line);
    return v;
  }
  __device__ void store(T v, memory_order order = memory_order_seq_cst,
                        int line = __builtin_LINE()) const {
    r_.store(v, order);
    note(Op::AtomicStore, v, T{}, order, line);
  }
  __device__ T exchange(T v, memory_order order = memory_order_seq_cst,
                        int line = __builtin_LINE()) const {
    const T old = r_.exchange(v, order);
    note(Op::AtomicExch, v, old, order, line);
    return old;
  }
  __device__ bool compare_exchange_strong(T& expected, T desired,
                                          memory_order order = memory_order_seq_cst,
                                          int line = __builtin_LINE()) const {
    const bool ok = r_.compare_exchange_strong(expected, desired, order);
    note(Op::AtomicCas, desired, expected, order, line);  // expected now holds the old value
    return ok;
  }
  __device__ bool compare_exchange_strong(T& expected, T desired, memory_order success,
                                          memory_order failure, int line = __builtin_LINE()) const {
    const bool ok = r_.compare_exchange_strong(expected, desired, success, failure);
    note(Op::AtomicCas, desired, expected, success, line);
    return ok;
  }
  __device__ bool compare_exchange_weak(T& expected, T desired,
                                        memory_order order = memory_order_seq_cst,
                                        int line = __builtin_LINE()) const {
    const bool ok = r_.compare_exchange_weak(expected, desired, order);
    note(Op::AtomicCas, desired, expected, order, line);
    return ok;
  }
  __device__ bool compare_exchange_weak(T& expected, T desired, memory_order success,
                                        memory_order failure, int line = __builtin_LINE()) const {
    const bool ok = r_.compare_exchange_weak(expected, desired, success, failure);
    note(Op::AtomicCas, desired, expected, success, line);
    return ok;
  }
#define COOP_FETCH(NAME, OP)                                                                  \
  __device__ T NAME(T v, memory_order order = memory_order_seq_cst,                           \
                    int line = __builtin_LINE()) const {                                      \
    const T old = r_.NAME(v, order);                                                          \
    note(Op::OP, v, old, order, line);                                                        \
    return old;                                                                               \
  }
  COOP_FETCH(fetch_add, AtomicAdd)
  COOP_FETCH(fetch_sub, AtomicSub)
  COOP_FETCH(fetch_min, AtomicMin)
  COOP_FETCH(fetch_max, AtomicMax)
  COOP_FETCH(fetch_and, AtomicAnd)
  COOP_FETCH(fetch_or, AtomicOr)
  COOP_FETCH(fetch_xor, AtomicXor)
#undef COOP_FETCH

  __device__ operator T() const { return load(memory_order_seq_cst, 0); }  // NOLINT: line unknown
  __device__ T operator=(detail::at_line<T> v) const {
    store(v.value, memory_order_seq_cst, v.line);
    return v.value;
  }
  __device__ T operator+=(detail::at_line<T> v) const {
    return T(fetch_add(v.value, memory_order_seq_cst, v.line) + v.value);
  }
  __device__ T operator-=(detail::at_line<T> v) const {
    return T(fetch_sub(v.value, memory_order_seq_cst, v.line) - v.value);
  }

 private:
  __device__ void note(Op op, T operand, T old, memory_order order, int line) const {
    ::coop::detail::record_atomic(op, p_, operand, old, line,
                                  uint16_t(scope_flags(int(Scope)) | order_flags(int(order))));
  }
  ::cuda::atomic_ref<T, Scope> r_;
  T* p_;
};

namespace std {
using ::cuda::std::memory_order;
using ::cuda::std::memory_order_acq_rel;
using ::cuda::std::memory_order_acquire;
using ::cuda::std::memory_order_consume;
using ::cuda::std::memory_order_relaxed;
using ::cuda::std::memory_order_release;
using ::cuda::std::memory_order_seq_cst;
// cuda::std::atomic_ref: system scope, as in libcu++.
template <class T>
using atomic_ref = ::coop::cuda::atomic_ref<T, thread_scope_system>;
}  // namespace std

}  // namespace cuda

// A traced plain (non-atomic) reference: reading it is a traced load, assigning a traced store.
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

// traced(x) read as a value (device/emu/cg/atomics.hpp says why).
template <class T>
__device__ ::cuda::std::remove_cv_t<T> traced_load(T& ref, int line = __builtin_LINE()) {
  return traced_ref<T>(ref, line);
}

__device__ __forceinline__ void __syncthreads(int line = __builtin_LINE()) {  // NOLINT
  cg::detail::timed(EventKind::Barrier, cg::thread_block::id(), cg::thread_block::thread_rank(),
                    cg::thread_block::size(), line, 0, [] { ::__syncthreads(); });
}

// The block barriers that also vote: recorded as __syncthreads() is, as the emulator does.
template <class Vote>
__device__ __forceinline__ int block_vote(int line, Vote vote) {
  int result = 0;
  cg::detail::timed(EventKind::Barrier, cg::thread_block::id(), cg::thread_block::thread_rank(),
                    cg::thread_block::size(), line, 0, [&] { result = vote(); });
  return result;
}
__device__ __forceinline__ int __syncthreads_count(int predicate,  // NOLINT
                                                   int line = __builtin_LINE()) {
  return block_vote(line, [&] { return ::__syncthreads_count(predicate); });
}
__device__ __forceinline__ int __syncthreads_and(int predicate,  // NOLINT
                                                 int line = __builtin_LINE()) {
  return block_vote(line, [&] { return ::__syncthreads_and(predicate); });
}
__device__ __forceinline__ int __syncthreads_or(int predicate,  // NOLINT
                                                int line = __builtin_LINE()) {
  return block_vote(line, [&] { return ::__syncthreads_or(predicate); });
}

}  // namespace coop
