// Emulated libcu++ pipelines and the primitives of <cuda_pipeline.h>.
//
// As libcu++ builds them (cuda/pipeline):
//   make_pipeline()                thread scope: each thread's copies are cp.async groups;
//                                  producer_commit commits one, consumer_wait waits for all but
//                                  the newer ones (wait_prior), acquire and release do nothing.
//   make_pipeline(group, &state)   block scope: each stage has a `produced` and a `consumed`
//                                  cuda::barrier in the shared state. producer_commit hands the
//                                  thread's copies to the stage's produced barrier and arrives;
//                                  consumer_wait waits for that phase; consumer_release arrives on
//                                  consumed; producer_acquire waits for the consumers' release.
// Copies land when their batch is waited for (thread scope) or when the produced phase completes
// (block scope): the latest moments a GPU may land them, so reading a stage early is a visible
// race. Events: memcpy_async is CopyIssue; consumer_wait is CopyWait (extra = the batches allowed
// to stay in flight, on the thread; or on the stage's produced barrier); commit and release are
// BarrierArrive and producer_acquire BarrierWait on the stage's barriers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>

#include "device/emu/cg/barrier.hpp"

namespace coop::cuda {

enum class pipeline_role { producer, consumer };

namespace detail {

template <thread_scope Scope>
struct pipeline_stage {
  barrier<Scope> produced;
  barrier<Scope> consumed;
};

// Stages the copy (each member of the group its share) until the next producer_commit.
template <class Size>
void copy_into_pipeline(const emu::GroupRef& g, void* dst, const void* src, Size size, size_t align,
                        int line) {
  check_alignment<Size>(dst, src, size_t(size), line);
  cg::detail::issue_copy(g, dst, src, size_t(size), align, line, emu::async_copy_stage);
}

// Builds pipelines and reaches their state, which user code cannot.
struct pipeline_access;

// Lands all but the `prior` newest batches of the calling thread: a thread-scope consumer_wait.
inline void wait_thread_batches(uint32_t prior, int line) {
  const uint64_t arrive = emu::now();
  emu::async_copy_wait(prior);
  Event e = cg::detail::group_event(EventKind::CopyWait, single_thread(), line);
  e.time = arrive;
  e.b = emu::now();
  e.extra = prior;
  emu::record(e);
}

}  // namespace detail

template <thread_scope Scope, uint8_t StageCount>
class pipeline_shared_state {
 public:
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;

 private:
  detail::pipeline_stage<Scope> stages_[StageCount];
  friend struct detail::pipeline_access;
};

// A pipeline of stages shared by a group (block scope and wider).
template <thread_scope Scope>
class pipeline {
 public:
  pipeline(pipeline&&) = default;
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  bool quit() { return true; }

  void producer_acquire(int line = __builtin_LINE()) {
    if (head_round_ == 0) return;  // the stage has never been filled
    wait_on(stages_[head_].consumed, head_round_ - 1, EventKind::BarrierWait, line,
            "pipeline::producer_acquire()");
  }
  void producer_commit(int line = __builtin_LINE()) {
    barrier<Scope>& produced = stages_[head_].produced;
    emu::barrier_attach_staged(&produced, uint16_t(line));
    arrive_on(produced, line);
    if (++head_ == count_) head_ = 0, ++head_round_;
  }
  void consumer_wait(int line = __builtin_LINE()) {
    wait_on(stages_[tail_].produced, tail_round_, EventKind::CopyWait, line,
            "pipeline::consumer_wait()");
  }
  void consumer_release(int line = __builtin_LINE()) {
    arrive_on(stages_[tail_].consumed, line);
    if (++tail_ == count_) tail_ = 0, ++tail_round_;
  }

 private:
  pipeline(detail::pipeline_stage<Scope>* stages, uint8_t count) : stages_(stages), count_(count) {}
  friend struct detail::pipeline_access;

  static void arrive_on(barrier<Scope>& bar, int line) {
    const uint64_t phase = emu::barrier_arrive(&bar, 1, false, uint16_t(line));
    detail::record_barrier_event(EventKind::BarrierArrive, &bar, line, phase, 0, 0);
  }
  static void wait_on(barrier<Scope>& bar, uint64_t phase, EventKind kind, int line,
                      const char* what) {
    uint64_t arrive = 0, depart = 0;
    emu::barrier_wait(&bar, phase, uint16_t(line), what, &arrive, &depart);
    detail::record_barrier_event(kind, &bar, line, phase, arrive, depart);
  }

  detail::pipeline_stage<Scope>* stages_;
  uint8_t count_;
  uint8_t head_ = 0, tail_ = 0;
  uint64_t head_round_ = 0, tail_round_ = 0;
};

// A thread's own pipeline (cuda::make_pipeline()): cp.async groups of the calling thread.
template <>
class pipeline<thread_scope_thread> {
 public:
  pipeline(pipeline&&) = default;
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  bool quit() { return true; }
  void producer_acquire(int = __builtin_LINE()) {}
  void producer_commit(int = __builtin_LINE()) {
    emu::async_copy_commit_staged();
    ++head_;
  }
  void consumer_wait(int line = __builtin_LINE()) {
    if (head_ == tail_) return;
    detail::wait_thread_batches(uint32_t(head_ - tail_ - 1), line);
    ++tail_;
  }
  void consumer_release(int = __builtin_LINE()) {}

 private:
  pipeline() = default;
  friend struct detail::pipeline_access;
  uint64_t head_ = 0, tail_ = 0;
};

namespace detail {

struct pipeline_access {
  static pipeline<thread_scope_thread> thread_pipeline() { return {}; }
  static void wait_prior(pipeline<thread_scope_thread>& pipe, uint32_t prior, int line) {
    wait_thread_batches(prior, line);
    pipe.tail_ = pipe.head_ > prior ? pipe.head_ - prior : 0;
  }
  // Rank 0 initialises the stage barriers (produced: the producers' arrivals, consumed: the
  // consumers'), then the group synchronizes, as libcu++ does.
  template <class Group, thread_scope Scope, uint8_t StageCount>
  static pipeline<Scope> group_pipeline(const Group& group,
                                        pipeline_shared_state<Scope, StageCount>* state,
                                        uint32_t producers, uint32_t consumers, int line) {
    if (group.thread_rank() == 0)
      for (auto& stage : state->stages_) {
        init(&stage.produced, ::std::ptrdiff_t(producers), empty_completion(), line);
        init(&stage.consumed, ::std::ptrdiff_t(consumers), empty_completion(), line);
      }
    group.sync(line);
    return pipeline<Scope>(state->stages_, StageCount);
  }
};

}  // namespace detail

inline pipeline<thread_scope_thread> make_pipeline() {
  return detail::pipeline_access::thread_pipeline();
}

// Waits until at most Prior of the thread's committed stages are still in flight.
template <uint8_t Prior>
void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& pipe,
                                  int line = __builtin_LINE()) {
  detail::pipeline_access::wait_prior(pipe, Prior, line);
}

// The group's pipeline over `state`, every member producing and consuming. Collective. (The
// line travels as a source_location so that an integer third argument can only be a count.)
template <class Group, thread_scope Scope, uint8_t StageCount>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, StageCount>* state,
                              ::std::source_location at = ::std::source_location::current()) {
  const auto size = uint32_t(group.size());
  return detail::pipeline_access::group_pipeline(group, state, size, size, int(at.line()));
}
// As above, with `producer_count` arrivals producing each stage and the rest consuming it.
template <class Group, thread_scope Scope, uint8_t StageCount>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, StageCount>* state,
                              size_t producer_count,
                              ::std::source_location at = ::std::source_location::current()) {
  const auto size = uint32_t(group.size());
  return detail::pipeline_access::group_pipeline(group, state, uint32_t(producer_count),
                                                 size - uint32_t(producer_count), int(at.line()));
}

// As above, each member saying its role: the producers are counted (a barrier of the group that
// also counts, as libcu++ counts them between two syncs), the rest consume.
template <class Group, thread_scope Scope, uint8_t StageCount>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, StageCount>* state,
                              pipeline_role role,
                              ::std::source_location at = ::std::source_location::current()) {
  const int line = int(at.line());
  const auto producers =
      uint32_t(cg::detail::barrier(group.trace_ref(), line, "make_pipeline()",
                                   cg::detail::count_true, role == pipeline_role::producer));
  return detail::pipeline_access::group_pipeline(group, state, producers,
                                                 uint32_t(group.size()) - producers, line);
}

// cuda::memcpy_async into a pipeline's current stage: this thread alone, or each member of a
// group its share. The copy belongs to the stage the next producer_commit closes.
template <class T, class Size, thread_scope Scope>
void memcpy_async(T* dst, const T* src, Size size, pipeline<Scope>&, int line = __builtin_LINE()) {
  detail::copy_into_pipeline(detail::single_thread(), dst, src, size, detail::copy_piece<T, Size>(),
                             line);
}
template <class Group, class T, class Size, thread_scope Scope>
void memcpy_async(const Group& group, T* dst, const T* src, Size size, pipeline<Scope>&,
                  int line = __builtin_LINE()) {
  detail::copy_into_pipeline(group.trace_ref(), dst, src, size, detail::copy_piece<T, Size>(),
                             line);
}

}  // namespace coop::cuda

// [SECTION] <cuda_pipeline.h>: the same cp.async groups as primitives.

// Copies size_and_align bytes (4, 8 or 16, with pointers aligned to it) into the uncommitted
// batch; zfill trailing bytes of the destination are zeroed instead of read.
inline void __pipeline_memcpy_async(void* dst, const void* src, size_t size_and_align,  // NOLINT
                                    size_t zfill = 0, int line = __builtin_LINE()) {
  if (size_and_align != 4 && size_and_align != 8 && size_and_align != 16)
    ::coop::emu::fault("__pipeline_memcpy_async copies 4, 8 or 16 bytes", uint16_t(line));
  if (zfill > size_and_align)
    ::coop::emu::fault("__pipeline_memcpy_async: zfill is larger than the copy", uint16_t(line));
  ::coop::cuda::detail::copy_into_pipeline(::coop::cuda::detail::single_thread(), dst, src,
                                           size_and_align - zfill, size_and_align, line);
  if (zfill) ::std::memset(static_cast<char*>(dst) + size_and_align - zfill, 0, zfill);
}
inline void __pipeline_commit() {
  ::coop::emu::async_copy_commit_staged();
}  // NOLINT
inline void __pipeline_wait_prior(size_t prior, int line = __builtin_LINE()) {  // NOLINT
  ::coop::cuda::detail::wait_thread_batches(uint32_t(prior), line);
}
