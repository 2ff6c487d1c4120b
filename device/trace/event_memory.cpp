#include "device/trace/event_memory.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

namespace coop {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

struct Block {
  void* data = nullptr;  // 2 MiB aligned, inside the mapping
  void* mapping = nullptr;
  size_t mapped = 0;  // bytes of the mapping
  size_t usable = 0;  // bytes from `data` on
};

// Blocks in use (to find a freed pointer's mapping) and blocks kept for reuse. At most
// kKeptBlocks are kept, and a request that none of them fits unmaps them all before mapping its
// own: kept blocks never add to what the arrays in use map.
class Blocks {
 public:
  void* take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < kept_.size(); ++i) {
      // A block much larger than asked would keep pages resident that the new array never uses.
      if (kept_[i].usable < bytes || kept_[i].usable / 2 > bytes) continue;
      in_use_.push_back(kept_[i]);
      kept_.erase(kept_.begin() + long(i));
      return in_use_.back().data;
    }
    for (const Block& b : kept_) munmap(b.mapping, b.mapped);
    kept_.clear();
    Block b;
    b.usable = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    b.mapped = b.usable + kHugePage;
    b.mapping = mmap(nullptr, b.mapped, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (b.mapping == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t start = reinterpret_cast<uintptr_t>(b.mapping);
    b.data = reinterpret_cast<void*>((start + kHugePage - 1) & ~uintptr_t(kHugePage - 1));
    // Millions of events land in fresh memory: 2 MiB pages cut the page faults 512-fold.
    madvise(b.data, b.usable, MADV_HUGEPAGE);
    in_use_.push_back(b);
    return b.data;
  }

  void give(void* data) noexcept {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < in_use_.size(); ++i) {
      if (in_use_[i].data != data) continue;
      const Block b = in_use_[i];
      in_use_.erase(in_use_.begin() + long(i));
      // The kernel may take the pages back whenever it needs them; until then a reuse finds them
      // resident and does not fault.
      madvise(b.data, b.usable, MADV_FREE);
      kept_.push_back(b);
      if (kept_.size() > kKeptBlocks) {
        munmap(kept_.front().mapping, kept_.front().mapped);
        kept_.erase(kept_.begin());
      }
      return;
    }
  }

  size_t kept_bytes() {
    std::lock_guard lock(mutex_);
    size_t bytes = 0;
    for (const Block& b : kept_) bytes += b.usable;
    return bytes;
  }

 private:
  static constexpr size_t kKeptBlocks = 2;
  std::mutex mutex_;
  std::vector<Block> in_use_, kept_;
};

// Never destroyed: arrays freed by other static objects' destructors still find it.
Blocks& blocks() {
  static Blocks* b = new Blocks;
  return *b;
}

}  // namespace

void* take_event_memory(size_t bytes) { return blocks().take(bytes); }

void give_event_memory(void* block, size_t) noexcept { blocks().give(block); }

size_t kept_event_memory_bytes() { return blocks().kept_bytes(); }

}  // namespace coop
