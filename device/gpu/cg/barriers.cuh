// coop's libcu++ barriers and pipelines under nvcc, part 8: cuda::barrier (and cuda::std::barrier),
// cuda::pipeline with its shared state, cuda::memcpy_async into either, and the <cuda_pipeline.h>
// primitives, as thin wrappers over libcu++'s own that record what the emulator records
// (device/emu/cg/barrier.hpp, pipeline.hpp): arrive and arrive_and_drop are BarrierArrive, wait
// is BarrierWait, arrive_and_wait is Barrier, on GroupKind::Barrier with the count given at init
// as the group size; memcpy_async is CopyIssue; a pipeline's commit and release are
// BarrierArrive, producer_acquire is BarrierWait and consumer_wait is CopyWait on the stage's
// barriers. libcu++'s namespace cuda cannot be made coop's under nvcc, so a program's spelling of
// these names is moved to coop::cuda by the lowering (device/lowering/lowering.cpp).
//
// A traced barrier keeps its init count beside libcu++'s barrier: libcu++ does not say it, and
// the trace needs it. It is therefore 8 bytes larger than an untraced one.
#pragma once

#include <cuda_pipeline_primitives.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include "device/gpu/cg/async.cuh"

namespace coop::cuda {

using ::cuda::aligned_size_t;
using ::cuda::pipeline_role;

namespace detail {

// A call's line as an argument no integer converts to, so that make_pipeline's optional count
// cannot be taken for the line.
struct call_line {
  int value;
  __device__ explicit call_line(int line) : value(line) {}
};

__device__ __forceinline__ uint32_t barrier_id(const void* bar) {
  return uint32_t(__cvta_generic_to_shared(bar));
}

// One of a barrier's events for the calling thread (rank: its rank in the block).
__device__ __forceinline__ void record_barrier_arrive(const void* bar, uint32_t count, int line) {
  cg::detail::record_arrive(cg::detail::TraceId{GroupKind::Barrier, barrier_id(bar), 0, 1, 0},
                            cg::thread_block::thread_rank(), count, line);
}
template <class Wait>
__device__ __forceinline__ void timed_on_barrier(EventKind kind, const void* bar, uint32_t count,
                                                 int line, Wait wait) {
  cg::detail::timed(kind, cg::detail::TraceId{GroupKind::Barrier, barrier_id(bar), 0, 1, 0},
                    cg::thread_block::thread_rank(), count, line, 0, wait);
}

// A copy one thread issues alone (the group of one the emulator names GroupKind::Thread).
__device__ __forceinline__ void record_single_copy(const void* dst, const void* src, size_t bytes,
                                                   int line) {
  if (!gpu::tracing()) return;
  Event e = ::coop::detail::memory_event(EventKind::CopyIssue, Op::None, dst, line);
  e.a = reinterpret_cast<uint64_t>(src);
  e.extra = uint32_t(bytes);
  gpu::record(e);
}

// A thread's wait for its own cp.async batches, all but `prior` of the newest.
__device__ __forceinline__ void record_batch_wait(uint32_t prior, int line, uint64_t arrive) {
  if (!gpu::tracing()) return;
  Event e = ::coop::detail::memory_event(EventKind::CopyWait, Op::None, nullptr, line);
  e.address = 0;
  e.flags = 0;
  e.time = arrive;
  e.b = gpu::departure_timer();
  e.extra = prior;
  gpu::record(e);
}

}  // namespace detail

template <thread_scope Scope, class Completion = ::cuda::std::__empty_completion>
class barrier;

template <thread_scope Scope, class Completion>
__device__ void init(barrier<Scope, Completion>* bar, ::cuda::std::ptrdiff_t expected,
                     Completion completion = Completion(), int line = __builtin_LINE());

template <thread_scope Scope, class Completion>
class barrier {
 public:
  using real_type = ::cuda::barrier<Scope, Completion>;
  using arrival_token = typename real_type::arrival_token;

  barrier() = default;
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  [[nodiscard]] __device__ arrival_token arrive(::cuda::std::ptrdiff_t update = 1,
                                                int line = __builtin_LINE()) {
    arrival_token token = real_.arrive(update);
    detail::record_barrier_arrive(this, count_, line);
    return token;
  }
  __device__ void wait(arrival_token&& token, int line = __builtin_LINE()) const {
    detail::timed_on_barrier(EventKind::BarrierWait, this, count_, line,
                             [&] { real_.wait(static_cast<arrival_token&&>(token)); });
  }
  __device__ void arrive_and_wait(int line = __builtin_LINE()) {
    detail::timed_on_barrier(EventKind::Barrier, this, count_, line,
                             [&] { real_.arrive_and_wait(); });
  }
  __device__ void arrive_and_drop(int line = __builtin_LINE()) {
    real_.arrive_and_drop();
    detail::record_barrier_arrive(this, count_, line);
  }
  __device__ static constexpr ::cuda::std::ptrdiff_t max() noexcept { return real_type::max(); }

  __device__ real_type& real() { return real_; }

 private:
  friend __device__ void init<>(barrier* bar, ::cuda::std::ptrdiff_t expected,
                                Completion completion, int line);
  real_type real_;
  uint32_t count_;
};

template <thread_scope Scope, class Completion>
__device__ void init(barrier<Scope, Completion>* bar, ::cuda::std::ptrdiff_t expected,
                     Completion completion, int /*line*/) {
  init(&bar->real_, expected, static_cast<Completion&&>(completion));
  bar->count_ = uint32_t(expected);
}

namespace std {
// cuda::std::barrier: the system-scope barrier of ISO C++.
template <class Completion = ::cuda::std::__empty_completion>
using barrier = ::coop::cuda::barrier<thread_scope_system, Completion>;
}  // namespace std

// cuda::memcpy_async(dst, src, size, bar): this thread copies; the barrier's phase completes only
// once the bytes have landed. Size is size_t or aligned_size_t<N>.
template <class T, class Size, thread_scope Scope, class Completion>
__device__ void memcpy_async(T* dst, const T* src, Size size, barrier<Scope, Completion>& bar,
                             int line = __builtin_LINE()) {
  detail::record_single_copy(dst, src, size_t(size), line);
  ::cuda::memcpy_async(dst, src, size, bar.real());
}
// The group form: every member of the group calls it and copies a share.
template <class Group, class T, class Size, thread_scope Scope, class Completion>
__device__ void memcpy_async(const Group& group, T* dst, const T* src, Size size,
                             barrier<Scope, Completion>& bar, int line = __builtin_LINE()) {
  cg::detail::record_copy_issue(group, dst, src, size_t(size), line);
  ::cuda::memcpy_async(group.real_group(), dst, src, size, bar.real());
}

template <thread_scope Scope, uint8_t StageCount>
class pipeline_shared_state {
 public:
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;

  __device__ ::cuda::pipeline_shared_state<Scope, StageCount>* real() { return &real_; }
  // Where make_pipeline counts the members that said they produce.
  __device__ unsigned int* producer_count() { return &producers_; }

 private:
  ::cuda::pipeline_shared_state<Scope, StageCount> real_;
  unsigned int producers_;
};

// A pipeline of stages shared by a group (block scope and wider). The stages' barriers are
// libcu++'s; the trace names them by stage (ids past the state's shared offset) and counts the
// producers and consumers given to make_pipeline.
template <thread_scope Scope>
class pipeline {
 public:
  pipeline(pipeline&&) = default;
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  __device__ bool quit() { return real_.quit(); }

  __device__ void producer_acquire(int line = __builtin_LINE()) {
    if (head_round_ == 0) {  // the stage has never been filled: nothing to wait for
      real_.producer_acquire();
      return;
    }
    detail::timed_on_barrier(EventKind::BarrierWait, consumed(head_), consumers_, line,
                             [&] { real_.producer_acquire(); });
  }
  __device__ void producer_commit(int line = __builtin_LINE()) {
    real_.producer_commit();
    detail::record_barrier_arrive(produced(head_), producers_, line);
    if (++head_ == count_) head_ = 0, ++head_round_;
  }
  __device__ void consumer_wait(int line = __builtin_LINE()) {
    detail::timed_on_barrier(EventKind::CopyWait, produced(tail_), producers_, line,
                             [&] { real_.consumer_wait(); });
  }
  __device__ void consumer_release(int line = __builtin_LINE()) {
    real_.consumer_release();
    detail::record_barrier_arrive(consumed(tail_), consumers_, line);
    if (++tail_ == count_) tail_ = 0;
  }

  __device__ ::cuda::pipeline<Scope>& real() { return real_; }

  __device__ pipeline(::cuda::pipeline<Scope>&& real, const void* state, uint8_t count,
                      uint32_t producers, uint32_t consumers)
      : real_(static_cast<::cuda::pipeline<Scope>&&>(real)),
        state_(static_cast<const char*>(state)),
        count_(count),
        producers_(producers),
        consumers_(consumers) {}

 private:
  // Addresses that stand for a stage's two barriers in the trace (its ids are free: each backend
  // lays shared memory out its own way).
  __device__ const void* produced(uint8_t stage) const { return state_ + 16 * stage; }
  __device__ const void* consumed(uint8_t stage) const { return state_ + 16 * stage + 8; }

  ::cuda::pipeline<Scope> real_;
  const char* state_;
  uint8_t count_;
  uint8_t head_ = 0, tail_ = 0;
  uint64_t head_round_ = 0;
  uint32_t producers_, consumers_;
};

// A thread's own pipeline (cuda::make_pipeline()): cp.async groups of the calling thread.
template <>
class pipeline<thread_scope_thread> {
 public:
  pipeline(pipeline&&) = default;
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  __device__ bool quit() { return real_.quit(); }
  __device__ void producer_acquire(int = __builtin_LINE()) { real_.producer_acquire(); }
  __device__ void producer_commit(int = __builtin_LINE()) {
    real_.producer_commit();
    ++head_;
  }
  __device__ void consumer_wait(int line = __builtin_LINE()) {
    if (head_ == tail_) return real_.consumer_wait();
    const uint64_t arrive = gpu::global_timer();
    real_.consumer_wait();
    detail::record_batch_wait(uint32_t(head_ - tail_ - 1), line, arrive);
    ++tail_;
  }
  __device__ void consumer_release(int = __builtin_LINE()) { real_.consumer_release(); }

  __device__ ::cuda::pipeline<thread_scope_thread>& real() { return real_; }
  __device__ explicit pipeline(::cuda::pipeline<thread_scope_thread>&& real)
      : real_(static_cast<::cuda::pipeline<thread_scope_thread>&&>(real)) {}

  // pipeline_consumer_wait_prior<Prior>: all but the Prior newest batches have landed.
  template <uint8_t Prior>
  __device__ void wait_prior(int line) {
    const uint64_t arrive = gpu::global_timer();
    ::cuda::pipeline_consumer_wait_prior<Prior>(real_);
    detail::record_batch_wait(Prior, line, arrive);
    tail_ = head_ > Prior ? head_ - Prior : 0;
  }

 private:
  ::cuda::pipeline<thread_scope_thread> real_;
  uint64_t head_ = 0, tail_ = 0;
};

__device__ inline pipeline<thread_scope_thread> make_pipeline() {
  return pipeline<thread_scope_thread>(::cuda::make_pipeline());
}

template <uint8_t Prior>
__device__ void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& pipe,
                                             int line = __builtin_LINE()) {
  pipe.template wait_prior<Prior>(line);
}

// The group's pipeline over `state`. libcu++ synchronizes the group inside (once, or three times
// when the members say their roles); the trace has what the emulator records: the roles' count
// (a barrier of the group) and one sync.
template <class Group, thread_scope Scope, uint8_t StageCount>
__device__ pipeline<Scope> make_pipeline(
    const Group& group, pipeline_shared_state<Scope, StageCount>* state,
    detail::call_line at = detail::call_line(__builtin_LINE())) {
  const auto size = uint32_t(group.size());
  pipeline<Scope> p(::cuda::make_pipeline(group.real_group(), state->real()), state, StageCount,
                    size, size);
  cg::detail::timed(EventKind::Barrier, group.trace_id(), uint32_t(group.thread_rank()), size,
                    at.value, 0, [] {});
  return p;
}
template <class Group, thread_scope Scope, uint8_t StageCount>
__device__ pipeline<Scope> make_pipeline(
    const Group& group, pipeline_shared_state<Scope, StageCount>* state, size_t producer_count,
    detail::call_line at = detail::call_line(__builtin_LINE())) {
  const auto size = uint32_t(group.size());
  pipeline<Scope> p(::cuda::make_pipeline(group.real_group(), state->real(), producer_count), state,
                    StageCount, uint32_t(producer_count), size - uint32_t(producer_count));
  cg::detail::timed(EventKind::Barrier, group.trace_id(), uint32_t(group.thread_rank()), size,
                    at.value, 0, [] {});
  return p;
}
template <class Group, thread_scope Scope, uint8_t StageCount>
__device__ pipeline<Scope> make_pipeline(
    const Group& group, pipeline_shared_state<Scope, StageCount>* state, pipeline_role role,
    detail::call_line at = detail::call_line(__builtin_LINE())) {
  const auto size = uint32_t(group.size());
  const auto rank = uint32_t(group.thread_rank());
  // The producers are counted in the state (libcu++ counts them too, but keeps the count), in
  // what the trace shows as one barrier of the group that counts, as the emulator's. The count is
  // cleared before libcu++'s first sync and read after a sync of its own.
  unsigned int* count = state->producer_count();
  if (rank == 0) *count = 0;
  ::cuda::pipeline<Scope> real = ::cuda::make_pipeline(group.real_group(), state->real(), role);
  uint32_t producers = 0;
  cg::detail::timed(EventKind::Barrier, group.trace_id(), rank, size, at.value, 0, [&] {
    if (role == pipeline_role::producer) ::atomicAdd(count, 1u);
    group.real_group().sync();
    producers = *count;
  });
  cg::detail::timed(EventKind::Barrier, group.trace_id(), rank, size, at.value, 0, [] {});
  return pipeline<Scope>(static_cast<::cuda::pipeline<Scope>&&>(real), state, StageCount, producers,
                         size - producers);
}

// cuda::memcpy_async into a pipeline's current stage: this thread alone, or each member of a
// group its share.
template <class T, class Size, thread_scope Scope>
__device__ void memcpy_async(T* dst, const T* src, Size size, pipeline<Scope>& pipe,
                             int line = __builtin_LINE()) {
  detail::record_single_copy(dst, src, size_t(size), line);
  ::cuda::memcpy_async(dst, src, size, pipe.real());
}
template <class Group, class T, class Size, thread_scope Scope>
__device__ void memcpy_async(const Group& group, T* dst, const T* src, Size size,
                             pipeline<Scope>& pipe, int line = __builtin_LINE()) {
  cg::detail::record_copy_issue(group, dst, src, size_t(size), line);
  ::cuda::memcpy_async(group.real_group(), dst, src, size, pipe.real());
}

}  // namespace coop::cuda

namespace coop {

// The <cuda_pipeline.h> primitives: the calling thread's cp.async batches.
__device__ __forceinline__ void __pipeline_memcpy_async(  // NOLINT
    void* dst, const void* src, size_t size_and_align, size_t zfill = 0,
    int line = __builtin_LINE()) {
  cuda::detail::record_single_copy(dst, src, size_and_align - zfill, line);
  ::__pipeline_memcpy_async(dst, src, size_and_align, zfill);
}
__device__ __forceinline__ void __pipeline_commit() {  // NOLINT
  ::__pipeline_commit();
}
__device__ __forceinline__ void __pipeline_wait_prior(size_t prior,  // NOLINT
                                                      int line = __builtin_LINE()) {
  const uint64_t arrive = gpu::global_timer();
  ::__pipeline_wait_prior(prior);
  cuda::detail::record_batch_wait(uint32_t(prior), line, arrive);
}

}  // namespace coop
