// Emulated libcu++ barriers: cuda::barrier<Scope> (and cuda::std::barrier) with init, arrive,
// wait, arrive_and_wait, arrive_and_drop, and cuda::memcpy_async with a barrier. The scheduler
// keeps each barrier's phases (emu_api.hpp); a wait blocks the fiber like the other barriers, so
// a thread that never arrives is reported as a deadlock naming the waiters and the missing
// threads. Events: arrive and arrive_and_drop are BarrierArrive, wait is BarrierWait,
// arrive_and_wait is Barrier, on GroupKind::Barrier (group_id = the barrier's shared offset).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "device/emu/cg/async.hpp"

namespace coop::cuda {

// What a memcpy_async promises about its size and pointers: both aligned to Alignment bytes, the
// size a multiple of it (libcu++'s cuda::aligned_size_t).
template <size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0,
                "aligned_size_t's alignment must be a power of two");
  static constexpr size_t align = Alignment;
  size_t value;
  constexpr explicit aligned_size_t(size_t size) : value(size) {}
  constexpr operator size_t() const { return value; }  // NOLINT: libcu++ converts implicitly
};

namespace detail {

// The completion function of a barrier without one.
struct empty_completion {
  void operator()() noexcept {}
};

template <class Size>
constexpr size_t size_align() {
  if constexpr (requires { Size::align; })
    return Size::align;
  else
    return 1;
}

// The barrier's identity in the trace.
inline emu::GroupRef barrier_group(const void* bar, int line) {
  emu::GroupRef g;
  g.kind = GroupKind::Barrier;
  g.id = uint32_t(emu::shared_offset(bar));
  g.rank = emu::this_thread().thread_rank;
  g.size = emu::barrier_expected(bar, uint16_t(line));
  return g;
}

// `phase` is the barrier's own (0-based): a = phase + 1 (event.hpp, GroupKind::Barrier).
inline void record_barrier_event(EventKind kind, const void* bar, int line, uint64_t phase,
                                 uint64_t arrive, uint64_t depart) {
  Event e = cg::detail::group_event(kind, barrier_group(bar, line), line);
  e.a = phase + 1;
  if (kind != EventKind::BarrierArrive) {
    e.time = arrive;
    e.b = depart;
  }
  emu::record(e);
}

// An aligned_size_t promise that does not hold is undefined behaviour on a GPU: reported here.
template <class Size>
void check_alignment(const void* dst, const void* src, size_t bytes, int line) {
  constexpr size_t n = size_align<Size>();
  if constexpr (n > 1) {
    if (reinterpret_cast<uintptr_t>(dst) % n || reinterpret_cast<uintptr_t>(src) % n || bytes % n)
      emu::fault("memcpy_async with aligned_size_t<" + ::std::to_string(n) +
                     ">: the pointers and the size must be multiples of " + ::std::to_string(n),
                 uint16_t(line));
  }
}

// The "group" of a cuda::memcpy_async without one: the calling thread alone.
inline emu::GroupRef single_thread() {
  emu::GroupRef g;
  g.kind = GroupKind::Thread;
  g.size = 1;
  return g;
}

}  // namespace detail

template <thread_scope Scope, class Completion = detail::empty_completion>
class barrier;

// Makes `*bar` a barrier expecting `expected` arrivals per phase (one thread calls it, then the
// block synchronizes before anyone else uses the barrier).
template <thread_scope Scope, class Completion>
void init(barrier<Scope, Completion>* bar, ::std::ptrdiff_t expected,
          Completion completion = Completion(), int line = __builtin_LINE());

template <thread_scope Scope, class Completion>
class barrier {
 public:
  // The phase the arrival belongs to; wait() blocks until that phase completes.
  struct arrival_token {
    uint64_t phase = 0;
  };

  barrier() = default;
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  [[nodiscard]] arrival_token arrive(::std::ptrdiff_t update = 1, int line = __builtin_LINE()) {
    const uint64_t phase = emu::barrier_arrive(this, uint32_t(update), false, uint16_t(line),
                                               &barrier::run_completion, this);
    detail::record_barrier_event(EventKind::BarrierArrive, this, line, phase, 0, 0);
    return {phase};
  }
  void wait(arrival_token&& token, int line = __builtin_LINE()) const {
    uint64_t arrive = 0, depart = 0;
    emu::barrier_wait(this, token.phase, uint16_t(line), "cuda::barrier::wait()", &arrive, &depart);
    detail::record_barrier_event(EventKind::BarrierWait, this, line, token.phase, arrive, depart);
  }
  void arrive_and_wait(int line = __builtin_LINE()) {
    const uint64_t arrive_time = emu::now();
    const uint64_t phase =
        emu::barrier_arrive(this, 1, false, uint16_t(line), &barrier::run_completion, this);
    uint64_t arrive = 0, depart = 0;
    emu::barrier_wait(this, phase, uint16_t(line), "cuda::barrier::arrive_and_wait()", &arrive,
                      &depart);
    detail::record_barrier_event(EventKind::Barrier, this, line, phase, arrive_time, depart);
  }
  // Arrives, and leaves: later phases expect one arrival fewer.
  void arrive_and_drop(int line = __builtin_LINE()) {
    const uint64_t phase =
        emu::barrier_arrive(this, 1, true, uint16_t(line), &barrier::run_completion, this);
    detail::record_barrier_event(EventKind::BarrierArrive, this, line, phase, 0, 0);
  }
  static constexpr ::std::ptrdiff_t max() noexcept { return (::std::ptrdiff_t(1) << 20) - 1; }

 private:
  static void run_completion(void* self) { static_cast<barrier*>(self)->completion_(); }
  friend void init<>(barrier* bar, ::std::ptrdiff_t expected, Completion completion, int line);

  // Eight bytes, as a GPU's block-scope barrier: the phases are the scheduler's.
  uint64_t word_;
  [[no_unique_address]] Completion completion_;
};

template <thread_scope Scope, class Completion>
void init(barrier<Scope, Completion>* bar, ::std::ptrdiff_t expected, Completion completion,
          int line) {
  // Shared memory holds no objects until init places one (a __shared__ barrier is not built).
  new (&bar->completion_) Completion(::std::move(completion));
  emu::barrier_init(bar, uint32_t(expected), uint16_t(line));
}

namespace std {
// cuda::std::barrier: the system-scope barrier of ISO C++.
template <class Completion = ::coop::cuda::detail::empty_completion>
using barrier = ::coop::cuda::barrier<thread_scope_system, Completion>;
}  // namespace std

namespace detail {

// Issues the copy (each member of the group its share) and hands it to the barrier's current
// phase, which cannot complete before the copy lands.
template <class Size, thread_scope Scope, class Completion>
void copy_with_barrier(const emu::GroupRef& g, void* dst, const void* src, Size size, size_t align,
                       barrier<Scope, Completion>& bar, int line) {
  check_alignment<Size>(dst, src, size_t(size), line);
  cg::detail::issue_copy(g, dst, src, size_t(size), align, line,
                         [&](const emu::AsyncCopy* copies, size_t count) {
                           emu::barrier_attach_copies(&bar, copies, count, uint16_t(line));
                         });
}

// The pieces a memcpy_async of T with a Size (size_t or aligned_size_t<N>) is dealt in: the
// alignment both promise, at most the 16 bytes one copy instruction moves.
template <class T, class Size>
constexpr size_t copy_piece() {
  size_t align = size_align<Size>();
  if constexpr (!::std::is_void_v<T>) align = ::std::max(align, alignof(T));
  return ::std::min<size_t>(align, 16);
}

}  // namespace detail

// cuda::memcpy_async(dst, src, size, bar): this thread copies; the barrier's phase completes
// only once the bytes have landed. Size is size_t or aligned_size_t<N>.
template <class T, class Size, thread_scope Scope, class Completion>
void memcpy_async(T* dst, const T* src, Size size, barrier<Scope, Completion>& bar,
                  int line = __builtin_LINE()) {
  detail::copy_with_barrier(detail::single_thread(), dst, src, size, detail::copy_piece<T, Size>(),
                            bar, line);
}
// The group form: every member of the group calls it and copies a share.
template <class Group, class T, class Size, thread_scope Scope, class Completion>
void memcpy_async(const Group& group, T* dst, const T* src, Size size,
                  barrier<Scope, Completion>& bar, int line = __builtin_LINE()) {
  detail::copy_with_barrier(group.trace_ref(), dst, src, size, detail::copy_piece<T, Size>(), bar,
                            line);
}

}  // namespace coop::cuda
