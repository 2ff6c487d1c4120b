// Emulated atomics and traced memory: CUDA's atomic functions, cuda::atomic_ref and
// cuda::std::atomic_ref (as coop::cuda::..., so lesson code spells them as usual), traced plain
// loads and stores, and __syncthreads(). Each is a plain step: the lanes of a warp at the same
// site run it together, reading before any of them writes, as one GPU instruction does.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "device/coop/atomic_flags.hpp"
#include "device/emu/cg/record.hpp"
#include "device/trace/value.hpp"

namespace coop {
namespace detail {

// Fills the address fields of a memory event: shared memory as a block offset, global as is.
COOP_EMU_UNRECORDED inline void set_address(Event& e, const void* p) {
  const int64_t off = emu::shared_offset(p);
  uint32_t owner = 0;
  uint64_t there = 0;
  if (off >= 0) {
    e.address = uint64_t(off);
    e.flags |= kFlagShared;
  } else if (emu::other_block_shared(p, &owner, &there)) {
    e.address = cluster_address(owner, there);
    e.flags |= kFlagCluster;
  } else {
    e.address = reinterpret_cast<uint64_t>(p);
  }
}

COOP_EMU_UNRECORDED inline Event memory_event(EventKind kind, Op op, const void* p, int line,
                                              uint64_t time) {
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

// Replaces *address by update(*address) atomically and returns the value it replaced. CUDA's
// __half2 and __nv_bfloat162 have their own copy operations, which std::atomic_ref refuses: they
// are updated through an unsigned integer of their size, which holds their bytes as they are.
template <class T, class Update>
T exchange_atomically(T* address, Update update) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    std::atomic_ref<T> ref(*address);
    T old = ref.load(std::memory_order_relaxed);
    while (!ref.compare_exchange_weak(old, update(old), std::memory_order_relaxed)) {
    }
    return old;
  } else {
    static_assert(cg::detail::kBytesValue<T> && (sizeof(T) == 4 || sizeof(T) == 8));
    using Raw = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    using cg::detail::carried_bits, cg::detail::carried_value;
    std::atomic_ref<Raw> ref(*reinterpret_cast<Raw*>(address));
    Raw seen = ref.load(std::memory_order_relaxed);
    while (!ref.compare_exchange_weak(seen, Raw(carried_bits(update(carried_value<T>(seen)))),
                                      std::memory_order_relaxed)) {
    }
    return carried_value<T>(seen);
  }
}

// One atomic read-modify-write, executed in lock-step with the warp's other lanes at this site.
// Records the operand and the old value (the order atomics landed in); the order among lanes
// and blocks is the hardware's to choose, so the event is marked nondeterministic.
template <class T, class Update>
COOP_EMU_UNRECORDED T atomic_rmw(T* address, T operand, Op op, int line, Update update,
                                 uint16_t flags = 0) {
  const emu::PlainStep step = emu::step_plain(uint16_t(line), op);
  emu::check_atomic(address, sizeof(T), op == Op::AtomicStore || op == Op::AtomicExch, line);
  T old = exchange_atomically(address, update);
  Event e = memory_event(EventKind::Atomic, op, address, line, step.time);
  e.a = to_bits(operand);
  e.b = to_bits(old);
  e.value_type = value_type_of<T>();
  e.flags |= kFlagNondeterministic | flags;
  emu::record(e);
  return old;
}

}  // namespace detail

// CUDA's atomic functions, traced, with their _block and _system forms (the same update at block
// or system scope, recorded with that scope's flag; the emulator's memory is coherent at every
// scope). The operand is not deduced, so atomicAdd(unsigned*, 1) works as in CUDA.
#define COOP_EMU_ATOMIC_AT(NAME, OP, EXPR, FLAGS)                                      \
  template <detail::AtomicValue T>                                                     \
  T NAME(T* address, std::type_identity_t<T> val, int line = __builtin_LINE()) {       \
    return detail::atomic_rmw(                                                         \
        address, val, Op::OP, line, [val]([[maybe_unused]] T old) { return T(EXPR); }, \
        uint16_t(FLAGS));                                                              \
  }
#define COOP_EMU_ATOMIC(NAME, OP, EXPR)                       \
  COOP_EMU_ATOMIC_AT(NAME, OP, EXPR, 0)                       \
  COOP_EMU_ATOMIC_AT(NAME##_block, OP, EXPR, kFlagScopeBlock) \
  COOP_EMU_ATOMIC_AT(NAME##_system, OP, EXPR, kFlagScopeSystem)
COOP_EMU_ATOMIC(atomicAdd, AtomicAdd, old + val)
COOP_EMU_ATOMIC(atomicSub, AtomicSub, old - val)
COOP_EMU_ATOMIC(atomicMin, AtomicMin, val < old ? val : old)
COOP_EMU_ATOMIC(atomicMax, AtomicMax, old < val ? val : old)
COOP_EMU_ATOMIC(atomicExch, AtomicExch, val)
COOP_EMU_ATOMIC(atomicAnd, AtomicAnd, old & val)
COOP_EMU_ATOMIC(atomicOr, AtomicOr, old | val)
COOP_EMU_ATOMIC(atomicXor, AtomicXor, old ^ val)
// CUDA's wrapping counters (unsigned int): inc wraps to 0 past val, dec wraps to val at 0 or above.
COOP_EMU_ATOMIC(atomicInc, AtomicInc, old >= val ? 0 : old + 1)
COOP_EMU_ATOMIC(atomicDec, AtomicDec, (old == 0 || old > val) ? val : old - 1)
#undef COOP_EMU_ATOMIC
#undef COOP_EMU_ATOMIC_AT

#define COOP_EMU_ATOMIC_CAS(NAME, FLAGS)                                                \
  template <detail::AtomicValue T>                                                      \
  T NAME(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> val,      \
         int line = __builtin_LINE()) {                                                 \
    return detail::atomic_rmw(                                                          \
        address, val, Op::AtomicCas, line,                                              \
        [compare, val](T old) { return old == compare ? val : old; }, uint16_t(FLAGS)); \
  }
COOP_EMU_ATOMIC_CAS(atomicCAS, 0)
COOP_EMU_ATOMIC_CAS(atomicCAS_block, kFlagScopeBlock)
COOP_EMU_ATOMIC_CAS(atomicCAS_system, kFlagScopeSystem)
#undef COOP_EMU_ATOMIC_CAS

namespace cuda {

// libcu++'s scopes and orders, with libcu++'s numbers (see atomic_flags.hpp).
enum thread_scope {
  thread_scope_system = 0,
  thread_scope_device = 1,
  thread_scope_block = 2,
  thread_scope_thread = 10
};

namespace std {
enum class memory_order : int { relaxed, consume, acquire, release, acq_rel, seq_cst };
inline constexpr auto memory_order_relaxed = memory_order::relaxed;
inline constexpr auto memory_order_consume = memory_order::consume;
inline constexpr auto memory_order_acquire = memory_order::acquire;
inline constexpr auto memory_order_release = memory_order::release;
inline constexpr auto memory_order_acq_rel = memory_order::acq_rel;
inline constexpr auto memory_order_seq_cst = memory_order::seq_cst;
}  // namespace std

using std::memory_order;
using std::memory_order_acq_rel;
using std::memory_order_acquire;
using std::memory_order_consume;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;

namespace detail {
// A value plus the line of the expression it came from, for operators (+=, =) that cannot take
// a defaulted line parameter.
template <class T>
struct at_line {
  T value;
  int line;
  at_line(T v, int l = __builtin_LINE()) : value(v), line(l) {}  // NOLINT
};
}  // namespace detail

// cuda::atomic_ref, traced. Every operation records op, operand, old value, scope and order. The
// emulator runs every operation sequentially consistent, which is one legal outcome of any order.
template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref {
 public:
  explicit atomic_ref(T& ref) : p_(&ref) {}
  atomic_ref(const atomic_ref&) = default;

  T load(memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const {
    return rmw(Op::AtomicLoad, T{}, order, line, [](T old) { return old; });
  }
  void store(T v, memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const {
    rmw(Op::AtomicStore, v, order, line, [v](T) { return v; });
  }
  T exchange(T v, memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const {
    return rmw(Op::AtomicExch, v, order, line, [v](T) { return v; });
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order order = memory_order_seq_cst,
                               int line = __builtin_LINE()) const {
    const T want = expected;
    const T old = rmw(Op::AtomicCas, desired, order, line,
                      [want, desired](T o) { return o == want ? desired : o; });
    const bool ok = old == want;
    expected = old;
    return ok;
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order,
                               int line = __builtin_LINE()) const {
    return compare_exchange_strong(expected, desired, success, line);
  }
  // The emulator never fails spuriously; a weak exchange behaves as a strong one.
  bool compare_exchange_weak(T& expected, T desired, memory_order order = memory_order_seq_cst,
                             int line = __builtin_LINE()) const {
    return compare_exchange_strong(expected, desired, order, line);
  }
  bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order,
                             int line = __builtin_LINE()) const {
    return compare_exchange_strong(expected, desired, success, line);
  }
#define COOP_EMU_FETCH(NAME, OP, EXPR)                                                        \
  T NAME(T v, memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const { \
    return rmw(Op::OP, v, order, line, [v](T old) { return T(EXPR); });                      \
  }
  COOP_EMU_FETCH(fetch_add, AtomicAdd, old + v)
  COOP_EMU_FETCH(fetch_sub, AtomicSub, old - v)
  COOP_EMU_FETCH(fetch_min, AtomicMin, v < old ? v : old)
  COOP_EMU_FETCH(fetch_max, AtomicMax, old < v ? v : old)
#undef COOP_EMU_FETCH
  T fetch_and(T v, memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const
    requires ::std::is_integral_v<T>
  {
    return rmw(Op::AtomicAnd, v, order, line, [v](T old) { return T(old & v); });
  }
  T fetch_or(T v, memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const
    requires ::std::is_integral_v<T>
  {
    return rmw(Op::AtomicOr, v, order, line, [v](T old) { return T(old | v); });
  }
  T fetch_xor(T v, memory_order order = memory_order_seq_cst, int line = __builtin_LINE()) const
    requires ::std::is_integral_v<T>
  {
    return rmw(Op::AtomicXor, v, order, line, [v](T old) { return T(old ^ v); });
  }

  // Reads like the variable; an operator has no line parameter, so the line is 0 (unknown), as
  // on the GPU (a defaulted one would name this header's line).
  // NOLINTNEXTLINE(*-explicit-*)
  operator T() const {
    return load(memory_order_seq_cst, 0);
  }
  T operator=(detail::at_line<T> v) const {
    store(v.value, memory_order_seq_cst, v.line);
    return v.value;
  }
  T operator+=(detail::at_line<T> v) const {
    return T(fetch_add(v.value, memory_order_seq_cst, v.line) + v.value);
  }
  T operator-=(detail::at_line<T> v) const {
    return T(fetch_sub(v.value, memory_order_seq_cst, v.line) - v.value);
  }

 private:
  template <class Update>
  T rmw(Op op, T operand, memory_order order, int line, Update update) const {
    const uint16_t flags = scope_flags(int(Scope)) | order_flags(int(order));
    return ::coop::detail::atomic_rmw(p_, operand, op, line, update, flags);
  }
  T* p_;
};

namespace std {
// cuda::std::atomic_ref: system scope, as in libcu++.
template <class T>
using atomic_ref = ::coop::cuda::atomic_ref<T, thread_scope_system>;
}  // namespace std

}  // namespace cuda

// A traced plain (non-atomic) reference: reading it is a traced load, assigning a traced store.
// Race lessons use it so that `traced(s[0]) = traced(s[0]) + x` loses updates as on a GPU.
template <class T>
class traced_ref {
 public:
  traced_ref(T& ref, int line) : p_(&ref), line_(line) {}
  COOP_EMU_UNRECORDED operator T() const {  // NOLINT: reads like the plain variable it stands for
    const emu::PlainStep step = emu::step_plain(uint16_t(line_), Op::None);
    std::remove_cv_t<T> value;
    __atomic_load(p_, &value, __ATOMIC_RELAXED);  // atomic on the host: racing blocks are not UB
    Event e = detail::memory_event(EventKind::Load, Op::None, p_, line_, step.time);
    e.b = to_bits(value);
    e.value_type = value_type_of<T>();
    emu::record(e);
    return value;
  }
  COOP_EMU_UNRECORDED const traced_ref& operator=(T value) const {
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

// traced(x) read as a value (what a plain read of x gives): the front end's form of a shown load
// (tools/frontend/shown_edits.hpp), which an `auto` or a varargs call must not see as a reference.
template <class T>
std::remove_cv_t<T> traced_load(T& ref, int line = __builtin_LINE()) {
  return traced_ref<T>(ref, line);
}

// __syncthreads(), traced as a barrier of the whole block.
inline void __syncthreads(int line = __builtin_LINE()) {  // NOLINT: CUDA's name
  cg::detail::barrier(cg::detail::block_group(), line, "__syncthreads()");
}

namespace cg::detail {
// How many members of a block barrier passed a true predicate, for each of them.
inline void count_true(std::span<emu::CollectiveCall* const> by_rank) {
  uint64_t n = 0;
  for (const emu::CollectiveCall* c : by_rank) n += c->in;
  for (emu::CollectiveCall* c : by_rank) c->out = n;
}
inline int block_vote(int predicate, int line, const char* what) {
  return int(barrier(block_group(), line, what, count_true, predicate != 0));
}
}  // namespace cg::detail

// __syncthreads() that also counts, or tests, a predicate over the block's threads.
inline int __syncthreads_count(int predicate, int line = __builtin_LINE()) {  // NOLINT
  return cg::detail::block_vote(predicate, line, "__syncthreads_count()");
}
inline int __syncthreads_and(int predicate, int line = __builtin_LINE()) {  // NOLINT
  return cg::detail::block_vote(predicate, line, "__syncthreads_and()") ==
         int(emu::this_thread().block_threads);
}
inline int __syncthreads_or(int predicate, int line = __builtin_LINE()) {  // NOLINT
  return cg::detail::block_vote(predicate, line, "__syncthreads_or()") != 0;
}

}  // namespace coop
