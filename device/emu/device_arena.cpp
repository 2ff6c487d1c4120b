#include "device/emu/device_arena.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

namespace coop::emu {
namespace {

// Regions are reserved, not committed (MAP_NORESERVE): a page costs memory once written. A
// region is at least this large, so a kernel's overrun past the last allocation (a wrong grid
// writes megabytes past the end) still finds mapped device memory, as on a GPU; a program's
// address-space limit (coopviz run's --memory-limit) bounds how many there can be.
constexpr size_t kRegionBytes = size_t(256) << 20;
// Freed spans at least this large hand their pages back to the system.
constexpr size_t kGiveBackBytes = size_t(2) << 20;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

class Arena {
 public:
  void* take(size_t span) {
    std::lock_guard<std::mutex> hold(lock_);
    // First fit, lowest address first: allocations follow one another as on a GPU.
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if (it->second >= span) return carve(it, span);
    // A region of its own for a large allocation, sized so its overrun room stays.
    const size_t bytes = span > kRegionBytes / 2 ? round_up(span + kRegionBytes / 2, 4096)
                                                 : kRegionBytes;
    void* region = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) return nullptr;
    const auto at = reinterpret_cast<uintptr_t>(region);
    return carve(free_.emplace(at, bytes).first, span);
  }

  void give(void* p, size_t span) {
    std::lock_guard<std::mutex> hold(lock_);
    uintptr_t at = reinterpret_cast<uintptr_t>(p);
    // Joined with free neighbours; regions are never joined, since mmap need not place them
    // side by side, but one that is adjacent joins harmlessly (both are mapped).
    auto next = free_.lower_bound(at);
    if (next != free_.end() && at + span == next->first) {
      span += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto before = std::prev(next);
      if (before->first + before->second == at) {
        at = before->first;
        span += before->second;
        free_.erase(before);
      }
    }
    free_.emplace(at, span);
    if (span >= kGiveBackBytes) {
      // Whole pages inside the span only: its ends may share a page with a live allocation.
      const uintptr_t from = round_up(at, 4096), to = (at + span) / 4096 * 4096;
      if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    }
  }

 private:
  void* carve(std::map<uintptr_t, size_t>::iterator it, size_t span) {
    const uintptr_t at = it->first;
    const size_t left = it->second - span;
    free_.erase(it);
    if (left) free_.emplace(at + span, left);
    return reinterpret_cast<void*>(at);
  }

  std::mutex lock_;
  std::map<uintptr_t, size_t> free_;  // start -> bytes, over every region
};

Arena& arena() {
  static Arena* a = new Arena;  // never destroyed: memory may be released during exit
  return *a;
}

}  // namespace

void* arena_allocate(size_t bytes, size_t guard) {
  const size_t span = guard + device_rounded(bytes) + guard;
  char* start = static_cast<char*>(arena().take(span));
  return start ? start + guard : nullptr;
}

void arena_release(void* p, size_t bytes, size_t guard) {
  const size_t span = guard + device_rounded(bytes) + guard;
  arena().give(static_cast<char*>(p) - guard, span);
}

}  // namespace coop::emu
