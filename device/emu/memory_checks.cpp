// [SECTION] Global allocations: the registry, their guard zones and initialisation shadows
// [SECTION] Where an access falls: shared variables and global allocations
// [SECTION] Fault reports: out of bounds, read of memory never written
// [SECTION] Copies that land later (memcpy_async)
//
// Compiled without the memory instrumentation, as the rest of the emulator (memory_record.hpp).
#include "device/emu/memory_checks.hpp"

#include <execinfo.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "device/emu/emu_api.hpp"
#include "device/emu/fault_report.hpp"
#include "device/emu/memory_record.hpp"

namespace coop::emu {
namespace {

// [SECTION] Global allocations: the registry, their guard zones and initialisation shadows

struct Allocation {
  detail::GlobalRange range;
  std::unique_ptr<unsigned char[]> written;  // the shadow behind range.written
  std::string name, origin;
  uint32_t element_size = 1;
};

struct GlobalRegistry {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> by_begin;
  std::string fault;  // the message of the access that stopped the last launch
};

// Never destroyed: the program's device saves its trace from a static destructor at exit, and
// the instrumented host code on that path still reports its stores here (host_wrote).
GlobalRegistry& registry() {
  static GlobalRegistry* r = new GlobalRegistry;
  return *r;
}

// Whether this thread holds the registry's lock. The registry's own work under it (composing a
// report's strings, naming an allocation) may run the program's instrumented copies of the
// standard library's inline code, whose stores come back to host_wrote: those are the registry's
// bookkeeping, never the program's memory, and waiting there for the lock would never end.
thread_local bool t_holds_registry = false;

class RegistryLock {
 public:
  explicit RegistryLock(GlobalRegistry& r) : lock_(r.mutex) { t_holds_registry = true; }
  ~RegistryLock() { t_holds_registry = false; }
  RegistryLock(const RegistryLock&) = delete;
  RegistryLock& operator=(const RegistryLock&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
};

// The allocation holding `p` (within its guard zones when `guards`), or nullptr. Lock held.
Allocation* find_allocation(GlobalRegistry& r, uintptr_t p, bool guards) {
  auto it = r.by_begin.upper_bound(p);
  if (it != r.by_begin.begin()) {
    Allocation& a = std::prev(it)->second;
    if (p < (guards ? a.range.high : a.range.end)) return &a;
  }
  if (guards && it != r.by_begin.end() && p >= it->second.range.low) return &it->second;
  return nullptr;
}

}  // namespace

void register_global_memory(const void* base, size_t bytes, size_t guard_before,
                            size_t guard_after, bool track_initialisation) {
  if (base == nullptr) return;
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  const auto b = reinterpret_cast<uintptr_t>(base);
  Allocation& a = r.by_begin[b];
  a = Allocation{};
  a.range = {b - guard_before, b, b + bytes, b + bytes + guard_after, nullptr};
  if (track_initialisation && bytes > 0) {
    a.written = std::make_unique<unsigned char[]>(bytes);
    a.range.written = a.written.get();
    detail::g_host_writes_tracked.store(true, std::memory_order_relaxed);
  }
}

std::optional<size_t> forget_global_memory(const void* base) {
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  const auto it = r.by_begin.find(reinterpret_cast<uintptr_t>(base));
  if (it == r.by_begin.end()) return std::nullopt;
  const size_t bytes = it->second.range.end - it->second.range.begin;
  r.by_begin.erase(it);
  return bytes;
}

void describe_global_memory(const void* base, const std::string& name, uint32_t element_size,
                            const std::string& origin) {
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  auto it = r.by_begin.find(reinterpret_cast<uintptr_t>(base));
  if (it == r.by_begin.end()) return;
  it->second.name = name;
  it->second.element_size = std::max<uint32_t>(element_size, 1);
  it->second.origin = origin;
}

void host_wrote(const void* dst, size_t bytes) {
  if (t_holds_registry) return;
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  const auto p = reinterpret_cast<uintptr_t>(dst);
  Allocation* a = find_allocation(r, p, false);
  if (a == nullptr || !a->written || p < a->range.begin) return;
  std::memset(a->written.get() + (p - a->range.begin), 1, std::min(bytes, a->range.end - p));
}

void host_copied(void* dst, const void* src, size_t bytes) {
  if (t_holds_registry) return;
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  Allocation* to = find_allocation(r, d, false);
  if (to == nullptr || !to->written || d < to->range.begin) return;
  const size_t n = std::min(bytes, to->range.end - d);
  unsigned char* shadow = to->written.get() + (d - to->range.begin);
  Allocation* from = find_allocation(r, s, false);
  // From the host, or from memory nobody tracks: all of it is written now.
  if (from == nullptr || !from->written || s < from->range.begin)
    std::memset(shadow, 1, n);
  else
    std::memmove(shadow, from->written.get() + (s - from->range.begin),
                 std::min(n, from->range.end - s));
}

std::string take_memory_fault() {
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  return std::exchange(r.fault, std::string());
}

namespace detail {

std::vector<GlobalRange> global_memory_snapshot() {
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  std::vector<GlobalRange> ranges;
  ranges.reserve(r.by_begin.size());
  for (const auto& [begin, a] : r.by_begin) ranges.push_back(a.range);
  return ranges;
}

// [SECTION] Where an access falls: shared variables and global allocations

SharedPlace shared_place(const LaunchState& L, int64_t offset, uint32_t bytes) {
  const auto inside = [&](size_t begin, size_t size) {
    return offset >= int64_t(begin) && uint64_t(offset) + bytes <= begin + size;
  };
  const size_t dynamic = L.request->config.dynamic_smem;
  if (inside(0, dynamic)) return {true, -1, 0, dynamic};
  // Slots are laid out in the order they were declared, at rising offsets: a binary search.
  const uint32_t n = L.slot_count.load(std::memory_order_acquire);
  const SlotEntry* first = L.slots;
  const SlotEntry* it = std::upper_bound(first, first + n, offset, [&](int64_t o, const SlotEntry& e) {
    return o < int64_t(L.static_base + e.offset);
  });
  if (it == first) return {};
  const SlotEntry& e = *std::prev(it);
  if (!inside(L.static_base + e.offset, e.bytes)) return {};
  return {true, int(std::prev(it) - first), L.static_base + e.offset, e.bytes};
}

unsigned char* written_shadow(const Worker& w, const Lane& lane, uintptr_t p) {
  const auto smem = reinterpret_cast<uintptr_t>(lane.block->smem);
  if (p >= smem && p < smem + w.launch->smem_bytes)
    return lane.block->smem_written ? lane.block->smem_written.get() + (p - smem) : nullptr;
  const auto& globals = w.launch->globals;
  auto it = std::upper_bound(globals.begin(), globals.end(), p,
                             [](uintptr_t q, const GlobalRange& g) { return q < g.begin; });
  if (it == globals.begin()) return nullptr;
  const GlobalRange& g = *std::prev(it);
  return p < g.end && g.written ? g.written + (p - g.begin) : nullptr;
}

namespace {

// [SECTION] Fault reports: out of bounds, read of memory never written

// "thread 37 (block 1)", or with their coordinates when the block or grid has more than one
// dimension: "thread (3,1,0) (block (1,0,0))".
std::string who(const Lane& lane) {
  const ThreadInfo& i = lane.info;
  const bool flat = i.block_dim.y == 1 && i.block_dim.z == 1 && i.grid_dim.y == 1 &&
                    i.grid_dim.z == 1;
  if (flat) return "thread " + std::to_string(i.thread_idx.x) + " (block " +
                   std::to_string(i.block_idx.x) + ")";
  return "thread (" + i.thread_idx.str() + ") (block (" + i.block_idx.str() + "))";
}

// name[index] for an offset that is a whole element from the start, else "byte N of name".
std::string element(const std::string& name, int64_t offset, size_t element_size) {
  const auto size = int64_t(std::max<size_t>(element_size, 1));
  if (size > 1 && offset % size == 0) return name + "[" + std::to_string(offset / size) + "]";
  if (size == 1) return name + "[" + std::to_string(offset) + "]";
  return "byte " + std::to_string(offset) + " of " + name;
}

// What the report says of one allocation: its name, size, element size and where it came from.
struct Described {
  std::string name;     // as an index is written: "d_out", "s"
  std::string what;     // "d_out, a 1024-byte allocation from cudaMalloc at scale.cu:40"
  int64_t offset = 0;   // of the access from the allocation's start
  size_t element_size = 1;
  int64_t size = 0;
  bool shared = false;
};

Described describe_shared(const LaunchState& L, int slot, int64_t offset) {
  Described d;
  d.shared = true;
  if (slot < 0) {
    const char* name = L.dynamic_name.load();
    d.name = name ? name : "dynamic shared memory";
    d.element_size = L.dynamic_element_size.load();
    d.size = int64_t(L.request->config.dynamic_smem);
    d.what = std::string(name ? "extern __shared__ " + d.name + ", " : "") +
             "the launch's " + std::to_string(d.size) + " bytes of dynamic shared memory";
    d.offset = offset;
    return d;
  }
  const SlotEntry& e = L.slots[slot];
  d.name = e.slot->name;
  d.element_size = e.element_size;
  d.size = int64_t(e.bytes);
  d.what = "__shared__ " + d.name + " (" + std::to_string(e.bytes) + " bytes, declared at line " +
           std::to_string(e.slot->line) + ")";
  d.offset = offset - int64_t(L.static_base + e.offset);
  return d;
}

// The shared variable an access outside every variable is nearest to: the one it ran past the
// end of, or the one it came before the start of.
int nearest_shared_slot(const LaunchState& L, int64_t offset) {
  const uint32_t n = L.slot_count.load(std::memory_order_acquire);
  int best = -1;  // the dynamic array, at 0
  int64_t distance = offset < 0 ? -offset : std::max<int64_t>(0, offset - int64_t(L.request->config.dynamic_smem));
  if (L.request->config.dynamic_smem == 0 && n > 0) distance = INT64_MAX;
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t begin = int64_t(L.static_base + L.slots[i].offset);
    const int64_t end = begin + int64_t(L.slots[i].bytes);
    const int64_t d = offset < begin ? begin - offset : std::max<int64_t>(0, offset - end + 1);
    if (d < distance) distance = d, best = int(i);
  }
  return best;
}

Described describe_global(uintptr_t p) {
  Described d;
  GlobalRegistry& r = registry();
  const RegistryLock lock(r);
  const Allocation* a = find_allocation(r, p, true);
  if (a == nullptr) return d;
  d.name = a->name.empty() ? "the allocation" : a->name;
  d.element_size = a->element_size;
  d.size = int64_t(a->range.end - a->range.begin);
  d.offset = int64_t(p) - int64_t(a->range.begin);
  d.what = (a->name.empty() ? "" : a->name + ", ") + "a " + std::to_string(d.size) +
           "-byte allocation" + (a->origin.empty() ? "" : " from " + a->origin);
  return d;
}

Described describe_access(const Lane& lane, uintptr_t p) {
  const LaunchState& L = *t_worker->launch;
  const auto smem = reinterpret_cast<uintptr_t>(lane.block->smem);
  if (p + kSharedGuardBytes >= smem && p < smem + L.smem_bytes) {
    const int64_t offset = int64_t(p) - int64_t(smem);
    const SharedPlace place = shared_place(L, offset, 1);
    return describe_shared(L, place.found ? place.slot : nearest_shared_slot(L, offset), offset);
  }
  return describe_global(p);
}

[[noreturn]] void stop(const std::string& message, uint16_t line) {
  {
    GlobalRegistry& r = registry();
    const RegistryLock lock(r);
    if (r.fault.empty()) r.fault = message;
  }
  fault(message, line);
}

}  // namespace

// Where the access is: the user's file and line from the line tables, else the line given.
std::string access_place(uint32_t code, uint16_t* line) {
  const uint16_t known = *line;
  std::string at = code_place(code, line);
  if (*line == 0 && known != 0) {
    *line = known;
    at = "line " + std::to_string(known);
  }
  return at;
}

void out_of_bounds(Lane& lane, uintptr_t p, uint32_t bytes, bool write, uint32_t code,
                   uint16_t line) {
  const std::string at = access_place(code, &line);
  const Described d = describe_access(lane, p);
  std::ostringstream os;
  os << who(lane) << (write ? " wrote " : " read ") << bytes << " byte" << (bytes == 1 ? "" : "s")
     << " at " << element(d.name, d.offset, d.element_size) << " at " << at << ", ";
  if (d.offset < 0)
    os << "before the start of ";
  else if (d.offset < d.size)
    os << "running over the end of ";
  else
    os << "past the end of ";
  os << d.what;
  stop(os.str(), line);
}

namespace {

// "read of memory never written: READER read 4 bytes at d_in[3] at AT, in ..."
std::string never_written(const std::string& reader, size_t bytes, const Described& d,
                          const std::string& at) {
  std::ostringstream os;
  os << "read of memory never written: " << reader << " read " << bytes << " byte"
     << (bytes == 1 ? "" : "s") << " at " << element(d.name, d.offset, d.element_size) << " at "
     << at << ", in " << d.what << ", where "
     << (d.shared ? "no thread of the block has written yet"
                : "neither the host (cudaMemcpy, cudaMemset) nor any thread has written yet");
  return os.str();
}

}  // namespace

void read_never_written(Lane& lane, uintptr_t p, uint32_t bytes, uint32_t code, uint16_t line) {
  const std::string at = access_place(code, &line);
  stop(never_written(who(lane), bytes, describe_access(lane, p), at), line);
}

// [SECTION] Copies that land later (memcpy_async)

void land_copy(const AsyncCopy& c) {
  std::memmove(c.dst, c.src, c.bytes);
  const Worker* w = t_worker;
  if (w == nullptr || w->current == nullptr || !w->launch->check_initialisation) return;
  const Lane& lane = *w->current;
  const auto d = reinterpret_cast<uintptr_t>(c.dst), s = reinterpret_cast<uintptr_t>(c.src);
  for (size_t i = 0; i < c.bytes; ++i) {
    unsigned char* to = written_shadow(*w, lane, d + i);
    if (to == nullptr) continue;
    const unsigned char* from = written_shadow(*w, lane, s + i);
    *to = from ? *from : 1;
  }
}

}  // namespace detail

void library_wrote(const void* p, size_t bytes) {
  const detail::Worker* w = detail::t_worker;
  if (w == nullptr || w->current == nullptr) {
    host_wrote(p, bytes);
    return;
  }
  if (!w->launch->check_initialisation) return;
  const auto at = reinterpret_cast<uintptr_t>(p);
  for (size_t i = 0; i < bytes; ++i)
    if (unsigned char* shadow = detail::written_shadow(*w, *w->current, at + i)) *shadow = 1;
}

namespace {

// The program's file and line of a library call: given (a source_location's), or the innermost
// frame of the program's code on the call stack.
std::string call_place(const char* file, unsigned line, uint16_t* found) {
  if (file != nullptr) {
    *found = uint16_t(line);
    const std::string path = file;
    return path.substr(path.find_last_of('/') + 1) + ":" + std::to_string(line);
  }
  void* frames[64];
  const int n = backtrace(frames, 64);
  const auto start = reinterpret_cast<uintptr_t>(&__executable_start);
  std::vector<uint32_t> codes;
  for (int i = 1; i < n; ++i) {  // return addresses: each minus one lies in its call
    const auto a = reinterpret_cast<uintptr_t>(frames[i]) - 1;
    if (a >= start && a - start <= UINT32_MAX) codes.push_back(uint32_t(a - start));
  }
  return detail::caller_place(codes, found);
}

}  // namespace

void library_read(const void* p, size_t bytes, const char* call, const char* file, unsigned line) {
  if (bytes == 0) return;
  const auto at = reinterpret_cast<uintptr_t>(p);
  // The first byte never written, with the element holding it: what the report names.
  const auto report = [&](size_t unwritten, detail::Described d, const std::string& reader) {
    const auto size = int64_t(std::max<size_t>(d.element_size, 1));
    const int64_t first = d.offset, bad = first + int64_t(unwritten);
    d.offset = bad - bad % size;
    const auto read = size_t(std::min<int64_t>(size, first + int64_t(bytes) - d.offset));
    uint16_t found = 0;
    const std::string place = call_place(file, line, &found);
    return std::pair(detail::never_written(reader, read, d, place), found);
  };
  if (const detail::Worker* w = detail::t_worker; w != nullptr && w->current != nullptr) {
    if (!w->launch->check_initialisation) return;
    for (size_t i = 0; i < bytes; ++i) {
      const unsigned char* shadow = detail::written_shadow(*w, *w->current, at + i);
      if (shadow == nullptr || *shadow != 0) continue;
      detail::Lane& lane = *w->current;
      const auto [message, found] =
          report(i, detail::describe_access(lane, at), detail::who(lane) + " in " + call);
      detail::stop(message, found);
    }
    return;
  }
  // On the host: the allocation holding the first byte, its shadow over the bytes read.
  if (!detail::g_host_writes_tracked.load(std::memory_order_relaxed)) return;
  size_t unwritten = 0;
  {
    GlobalRegistry& r = registry();
    const RegistryLock lock(r);
    const Allocation* a = find_allocation(r, at, false);
    if (a == nullptr || !a->written || at < a->range.begin) return;
    const unsigned char* shadow = a->written.get() + (at - a->range.begin);
    const void* zero = std::memchr(shadow, 0, std::min(bytes, a->range.end - at));
    if (zero == nullptr) return;
    unwritten = size_t(static_cast<const unsigned char*>(zero) - shadow);
  }
  const auto [message, found] = report(unwritten, detail::describe_global(at), call);
  (void)found;
  report_stop(message.c_str());
  std::fflush(stdout);
  std::exit(1);
}

}  // namespace coop::emu
