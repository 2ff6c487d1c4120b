// [SECTION] The entry points g++'s ThreadSanitizer instrumentation calls in kernel translation
// units (memory_record.hpp), and the recording behind them. This file itself is compiled without
// the instrumentation, as is the rest of the emulator.
//
// [SECTION] Recording one access
// [SECTION] Entry points: plain, unaligned and volatile accesses, ranges, atomics, no-ops
#include <algorithm>
#include <cstring>

#include "device/emu/emu_api.hpp"
#include "device/emu/memory_checks.hpp"
#include "device/emu/memory_record.hpp"
#include "device/emu/scheduler_state.hpp"
#include "device/trace/value.hpp"

namespace coop::emu {
namespace {

thread_local int t_paused = 0;

}  // namespace

MemoryRecordingPause::MemoryRecordingPause() {
  ++t_paused;
}
MemoryRecordingPause::~MemoryRecordingPause() {
  --t_paused;
}

bool memory_instrumentation_available() {
#ifdef COOPVIZ_NO_MEMORY_INSTRUMENTATION
  return false;
#else
  return true;
#endif
}

namespace detail {

void record_pending_store(Worker& w) {
  Event& e = w.pending_store;
  uint64_t bits = 0;
  std::memcpy(&bits, w.pending_address, std::min<uint32_t>(e.extra, 8));
  e.a = bits;
  w.pending_address = nullptr;
  record(e);
}

}  // namespace detail

namespace {
using namespace detail;

// [SECTION] Recording one access

// Where `p` lies, if a kernel may share it: the running block's shared memory (as an offset), a
// registered global allocation, or another block's shared memory (reached through
// map_shared_rank). Anything else (a fiber's stack, host data) is not recorded. With bounds
// checked, an access outside the variable or allocation it touches stops the lane here, before
// it happens (memory_checks.hpp).
bool shared_or_global(const Worker& w, Lane& lane, uintptr_t p, uint32_t bytes, bool write,
                      uint32_t code, Event& e, uint16_t line = 0) {
  const LaunchState& L = *w.launch;
  const bool check = L.check_bounds;
  const auto smem = reinterpret_cast<uintptr_t>(lane.block->smem);
  if (check && p + kSharedGuardBytes >= smem && p < smem + L.smem_bytes) {
    if (!shared_place(L, int64_t(p) - int64_t(smem), bytes).found)
      out_of_bounds(lane, p, bytes, write, code, line);
    e.address = p - smem;
    e.flags |= kFlagShared;
    return true;
  }
  if (p >= smem && p + bytes <= smem + L.smem_bytes) {
    e.address = p - smem;
    e.flags |= kFlagShared;
    return true;
  }
  const auto& globals = L.globals;
  auto it = std::upper_bound(globals.begin(), globals.end(), p,
                             [](uintptr_t q, const GlobalRange& g) { return q < g.low; });
  if (it != globals.begin()) {
    const GlobalRange& g = *std::prev(it);
    if (p >= g.begin && p + bytes <= g.end) {
      e.address = p;
      return true;
    }
    if (check && p < g.high) out_of_bounds(lane, p, bytes, write, code, line);
  }
  uint32_t owner = 0;
  uint64_t offset = 0;
  // Only a cluster's blocks can reach each other's shared memory.
  if (lane.info.cluster_dim.count() <= 1 ||
      !other_block_shared(reinterpret_cast<const void*>(p), &owner, &offset))
    return false;
  e.address = cluster_address(owner, offset);
  e.flags |= kFlagCluster;
  return true;
}

// With initialisation checked: a read of bytes never written stops the lane; a write marks them.
void check_written(const Worker& w, Lane& lane, uintptr_t p, uint32_t bytes, bool write,
                   uint32_t code, uint16_t line = 0) {
  unsigned char* shadow = written_shadow(w, lane, p);
  if (shadow == nullptr) return;
  if (write) {
    std::memset(shadow, 1, bytes);
    return;
  }
  for (uint32_t i = 0; i < bytes; ++i)
    if (shadow[i] == 0) read_never_written(lane, p, bytes, code, line);
}

// The value bits of a 1- to 16-byte access (the first 8 bytes of a 16-byte one), and how to read
// them: the instrumentation knows sizes, not types.
ValueType value_type_of_size(uint32_t bytes) {
  return bytes <= 4 ? ValueType::U32 : ValueType::U64;
}

// A shared or global access seen by the hooks: a step point under the random and its schedules
// (before the access, so that other threads may run between a load and its store), then recorded
// when memory recording is on. A volatile access is a step point under lockstep too: code that
// leaves a warp's lanes to read each other's shared values through a volatile pointer with no
// __syncwarp (the warp-synchronous reductions of older course code) gets what a converged warp
// does, every lane's load before any lane's store.
[[gnu::noinline]] void see_access(Worker& w, const void* p, uint32_t bytes, bool write,
                                  bool is_volatile, const void* return_address) {
  flush_pending_store(w);
  Lane* lane = w.current;
  if (lane == nullptr || t_paused != 0) return;
  Event e{};
  // The call's return address minus one lies inside the access's call instruction, whose line
  // the line tables give.
  const auto code = uint32_t(static_cast<const char*>(return_address) - &__executable_start - 1);
  // Where the running thread is, for the launch monitor: a thread that loops on a load reaches
  // no step point, and this is the only place it shows (launch_monitor.hpp).
  w.last_code.store(code, std::memory_order_relaxed);
  const auto address = reinterpret_cast<uintptr_t>(p);
  const bool device_memory = shared_or_global(w, *lane, address, bytes, write, code, e);
  if (device_memory && w.launch->check_initialisation && !(e.flags & kFlagCluster))
    check_written(w, *lane, address, bytes, write, code);
  // A volatile access steps wherever it points (a launch that records nothing knows no buffers).
  if (((device_memory && w.launch->access_steps) || is_volatile) && w.no_access_steps == 0)
    access_step(*lane, code);
  if (!device_memory || !w.launch->record_memory) return;
  e.group_id = code;
  e.kind = write ? EventKind::Store : EventKind::Load;
  e.group_kind = GroupKind::Thread;
  e.group_size = 1;
  e.extra = bytes;
  e.flags |= kFlagInstrumented;
  e.value_type = value_type_of_size(bytes);
  e.time = w.clock;
  if (write) {
    // The value is not in memory yet: recorded at this lane's next access or event.
    w.pending_store = e;
    w.pending_address = p;
    return;
  }
  uint64_t bits = 0;
  std::memcpy(&bits, p, std::min<uint32_t>(bytes, 8));
  e.b = bits;
  record(e);
}

inline void on_access(const void* p, uint32_t bytes, bool write, const void* return_address,
                      bool is_volatile = false) {
  Worker* w = t_recording_worker;
  if (w == nullptr) [[likely]] {
    // A volatile access steps its warp even in a launch that records and checks nothing.
    if (!is_volatile || t_worker == nullptr) {
      // The host's own stores (to managed memory) count as initialising it.
      if (write && g_host_writes_tracked.load(std::memory_order_relaxed)) host_wrote(p, bytes);
      return;
    }
    w = t_worker;
  }
  const Lane* lane = w->current;
  if (lane == nullptr) return;
  // Most instrumented accesses are to the thread's own frame (locals whose address escapes, the
  // events and calls coop's inlined code builds there): rejected before anything else.
  if (reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(lane->stack_low) <
      lane->stack_size)
    return;
  see_access(*w, p, bytes, write, is_volatile, return_address);
}

}  // namespace

// Atomics are coop's traced operations, not instrumented accesses: checked here. An atomic that
// reads reads first, so a read-modify-write of memory never written (a histogram's bins nobody
// zeroed) is found.
[[gnu::noinline]] void check_atomic(const void* p, uint32_t bytes, bool overwrites, int line) {
  Worker* w = t_recording_worker;
  if (w == nullptr || w->current == nullptr) return;
  const LaunchState& L = *w->launch;
  if (!L.check_bounds && !L.check_initialisation) return;
  const auto code =
      uint32_t(static_cast<const char*>(__builtin_return_address(0)) - &__executable_start - 1);
  const auto address = reinterpret_cast<uintptr_t>(p);
  Event e{};
  if (!shared_or_global(*w, *w->current, address, bytes, true, code, e, uint16_t(line))) return;
  if (!L.check_initialisation || (e.flags & kFlagCluster)) return;
  if (!overwrites) check_written(*w, *w->current, address, bytes, false, code, uint16_t(line));
  check_written(*w, *w->current, address, bytes, true, code, uint16_t(line));
}

namespace {

// A kernel's __threadfence(), recorded with its loads and stores: with relaxed atomics, fences
// are how a kernel orders its memory for other blocks (the race detector needs them).
void on_fence(const void* return_address) {
  Worker* w = t_recording_worker;
  if (w == nullptr || w->current == nullptr || t_paused != 0) return;
  flush_pending_store(*w);
  Event e{};
  e.kind = EventKind::Fence;
  e.group_kind = GroupKind::Thread;
  e.group_size = 1;
  e.group_id = uint32_t(static_cast<const char*>(return_address) - &__executable_start - 1);
  e.flags = kFlagInstrumented;
  e.time = w->clock;
  record(e);
}

}  // namespace
}  // namespace coop::emu

// [SECTION] Entry points: plain, unaligned and volatile accesses, ranges, atomics, no-ops
//
// Names and signatures are ThreadSanitizer's compiler interface (what g++ emits calls to).
// NOLINTBEGIN(readability-identifier-naming)
extern "C" {

#define COOP_ACCESS_HOOK(NAME, BYTES, WRITE, VOLATILE)                              \
  [[gnu::used]] void NAME(void* p) {                                                \
    ::coop::emu::on_access(p, BYTES, WRITE, __builtin_return_address(0), VOLATILE); \
  }
#define COOP_ACCESS_HOOKS(BYTES)                                      \
  COOP_ACCESS_HOOK(__tsan_read##BYTES, BYTES, false, false)           \
  COOP_ACCESS_HOOK(__tsan_write##BYTES, BYTES, true, false)           \
  COOP_ACCESS_HOOK(__tsan_unaligned_read##BYTES, BYTES, false, false) \
  COOP_ACCESS_HOOK(__tsan_unaligned_write##BYTES, BYTES, true, false) \
  COOP_ACCESS_HOOK(__tsan_volatile_read##BYTES, BYTES, false, true)   \
  COOP_ACCESS_HOOK(__tsan_volatile_write##BYTES, BYTES, true, true)
COOP_ACCESS_HOOKS(1)
COOP_ACCESS_HOOKS(2)
COOP_ACCESS_HOOKS(4)
COOP_ACCESS_HOOKS(8)
COOP_ACCESS_HOOKS(16)
#undef COOP_ACCESS_HOOKS
#undef COOP_ACCESS_HOOK

// Whole-object copies (a struct assigned): recorded as one access of their size when that fits
// an event's size field; larger ones are the compiler's block copies, not one GPU instruction.
[[gnu::used]] void __tsan_read_range(void* p, unsigned long bytes) {
  if (bytes <= 16) ::coop::emu::on_access(p, uint32_t(bytes), false, __builtin_return_address(0));
}
[[gnu::used]] void __tsan_write_range(void* p, unsigned long bytes) {
  if (bytes <= 16) ::coop::emu::on_access(p, uint32_t(bytes), true, __builtin_return_address(0));
}

[[gnu::used]] void __tsan_init() {}
[[gnu::used]] void __tsan_func_entry(void*) {}
[[gnu::used]] void __tsan_func_exit() {}
[[gnu::used]] void __tsan_vptr_update(void**, void*) {}
[[gnu::used]] void __tsan_vptr_read(void**) {}

// Atomics: done, not recorded. Kernel atomics are coop's traced operations, which record
// themselves; the emulator runs every atomic sequentially consistent, one legal outcome of any
// order asked for.
#define COOP_ATOMIC_HOOKS(BITS, T)                                                                 \
  [[gnu::used]] T __tsan_atomic##BITS##_load(const volatile T* a, int) {                           \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                \
  [[gnu::used]] void __tsan_atomic##BITS##_store(volatile T* a, T v, int) {                        \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_exchange(volatile T* a, T v, int) {                        \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_fetch_add(volatile T* a, T v, int) {                       \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_fetch_sub(volatile T* a, T v, int) {                       \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_fetch_and(volatile T* a, T v, int) {                       \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_fetch_or(volatile T* a, T v, int) {                        \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                              \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_fetch_xor(volatile T* a, T v, int) {                       \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_fetch_nand(volatile T* a, T v, int) {                      \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  [[gnu::used]] int __tsan_atomic##BITS##_compare_exchange_strong(volatile T* a, T* expected, T v, \
                                                                  int, int) {                      \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                                \
  [[gnu::used]] int __tsan_atomic##BITS##_compare_exchange_weak(volatile T* a, T* expected, T v,   \
                                                                int, int) {                        \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                                \
  [[gnu::used]] T __tsan_atomic##BITS##_compare_exchange_val(volatile T* a, T expected, T v, int,  \
                                                             int) {                                \
    __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    return expected;                                                                               \
  }
COOP_ATOMIC_HOOKS(8, unsigned char)
COOP_ATOMIC_HOOKS(16, unsigned short)
COOP_ATOMIC_HOOKS(32, unsigned int)
COOP_ATOMIC_HOOKS(64, unsigned long long)
#undef COOP_ATOMIC_HOOKS

[[gnu::used]] void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  ::coop::emu::on_fence(__builtin_return_address(0));
}
[[gnu::used]] void __tsan_atomic_signal_fence(int) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

}  // extern "C"
// NOLINTEND(readability-identifier-naming)
