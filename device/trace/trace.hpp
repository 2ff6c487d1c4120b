// One recorded kernel launch: what was launched where, and every event its threads recorded.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"
#include "device/trace/event.hpp"
#include "device/trace/event_memory.hpp"

namespace coop {

enum class Backend : uint8_t { Gpu, Emu };

// The most threads a traced launch (and a trace file) may have. Views and analysis keep a little
// state per thread; bounding the count bounds what an untrusted file can make the app allocate.
// The largest grid that fills an H200 at full occupancy has 270 336 threads.
inline constexpr uint64_t kMaxTracedThreads = uint64_t(1) << 24;
// The most SMs a trace may name (device SM count, SM ids of block records). The largest GPUs
// have under 200; the bound keeps per-SM tables built from a file small.
inline constexpr uint32_t kMaxTracedSms = 4096;
const char* to_string(Backend backend);

// A named allocation the kernel touched, so addresses in events can be shown as name[index].
struct BufferInfo {
  std::string name;
  uint64_t base = 0;       // device address (GPU) or host address (emulator) at record time
  uint64_t bytes = 0;
  ValueType type = ValueType::None;
  uint32_t element_size = 0;
  bool shared = false;     // a __shared__ array; base is then its offset in the block's window
};

struct TraceHeader {
  std::string lesson;          // lesson id, or "" for a bare kernel
  std::string kernel;          // kernel function name
  Backend backend = Backend::Emu;
  DeviceProps device;          // the device it ran on (or the one the emulator imitated)
  LaunchConfig launch;
  uint64_t seed = 0;
  std::map<std::string, std::string> params;  // lesson parameters as the user gave them
  std::string recorded_at;     // UTC, ISO 8601
  std::string coopviz_version;
  uint64_t capacity = 0;       // event slots reserved before the launch
  uint64_t attempts = 0;       // events offered; dropped = attempts - recorded
  double kernel_ms = 0;        // wall time of the kernel itself (GPU: cudaEvent timing)
  // A program's later launches of this kernel with the same grid, block and dynamic shared
  // memory that ran untraced (coopviz run --trace-launches); 0 in files older than the count.
  uint64_t untraced = 0;
  // What Event::time and barrier departures count, in words ("%globaltimer ns, ...", "emulator
  // steps ..."), and on a GPU how often the timer ticks as measured before the launch (0: not a
  // nanosecond clock). Times within one tick of each other are not ordered by their stamps.
  std::string clock;
  uint32_t clock_resolution_ns = 0;
  std::vector<BufferInfo> buffers;
  std::string source_file;     // lesson kernel file name the line numbers refer to
  std::string source;          // its text, so a replay shows the code that ran
  std::string schedule;        // emulator: how blocks were interleaved; GPU: empty
};

// An allocator that leaves new elements uninitialised. Recorders size the event array to the full
// capacity up front and write slot `sequence` directly; with value-initialisation that would
// touch (and make resident) every page of a capacity that is mostly never used. Large arrays come
// from event_memory.hpp, which keeps freed ones for the next launch's trace.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  using std::allocator<T>::allocator;
  T* allocate(size_t n) {
    if (n >= kEventMemoryBlockBytes / sizeof(T))
      return static_cast<T*>(take_event_memory(n * sizeof(T)));
    return std::allocator<T>::allocate(n);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n >= kEventMemoryBlockBytes / sizeof(T)) return give_event_memory(p, n * sizeof(T));
    std::allocator<T>::deallocate(p, n);
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) ::new (static_cast<void*>(p)) U;
    else ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

using EventVector = std::vector<Event, UninitializedAllocator<Event>>;

struct Trace {
  TraceHeader header;
  EventVector events;  // in sequence order once finalized

  uint64_t recorded() const { return events.size(); }
  uint64_t dropped() const {
    return header.attempts > events.size() ? header.attempts - events.size() : 0;
  }
};

// True when the block records (ThreadBegin/ThreadEnd) carry a modelled schedule, not the clock
// (apply_schedule_to_trace says so in TraceHeader::schedule).
inline bool block_records_modelled(const TraceHeader& h) {
  return h.schedule.rfind("modelled", 0) == 0;
}

// Puts events in sequence order and numbers barrier phases: for each thread, the k-th barrier
// event on a given group gets phase k (Event::extra). Both backends call this once after a
// launch, so phase numbering is the same code on both.
void finalize_trace(Trace& trace);

// Current UTC time as ISO 8601 ("2026-11-22T10:00:00Z").
std::string utc_now_iso8601();

}  // namespace coop
