#include "device/emu/stack_pool.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>

#include "device/emu/asan_fibers.hpp"

namespace coop::emu {
namespace {
constexpr uint64_t kCanary = 0xC00Bu * 0x0001000100010001ull;
constexpr size_t kCanaryWords = 8;
}  // namespace

StackPool::StackPool(size_t stack_bytes, size_t stacks_per_chunk)
    : stack_bytes_(stack_bytes), per_chunk_(stacks_per_chunk),
      chunk_bytes_(stack_bytes * stacks_per_chunk) {}

StackPool::~StackPool() {
  for (void* c : chunks_) munmap(c, chunk_bytes_);
}

void StackPool::grow() {
  void* chunk = mmap(nullptr, chunk_bytes_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (chunk == MAP_FAILED) throw std::bad_alloc();
  chunks_.push_back(chunk);
  char* base = static_cast<char*>(chunk);
  for (size_t i = per_chunk_; i-- > 0;) {
    char* low = base + i * stack_bytes_;
    auto* words = reinterpret_cast<uint64_t*>(low);
    for (size_t w = 0; w < kCanaryWords; ++w) words[w] = kCanary;
    free_.push_back(low);
  }
}

boost::context::stack_context StackPool::allocate() {
  if (free_.empty()) grow();
  char* low = free_.back();
  free_.pop_back();
  forget_stack_frames(low, stack_bytes_);
  // Stacks grow down from the high end; shift each top by a different multiple of 320 bytes
  // (5 cache lines, coprime with the set counts) within the first 12 KiB.
  const size_t colour = (++handed_out_ * 320) % (12 * 1024);
  boost::context::stack_context sc;
  sc.size = stack_bytes_ - colour;
  sc.sp = low + stack_bytes_ - colour;
  return sc;
}

bool StackPool::overflowed(const boost::context::stack_context& sc) const {
  const auto* words =
      reinterpret_cast<const uint64_t*>(static_cast<char*>(sc.sp) - sc.size);
  for (size_t w = 0; w < kCanaryWords; ++w)
    if (words[w] != kCanary) return true;
  return false;
}

bool StackPool::deallocate(boost::context::stack_context& sc) {
  char* low = static_cast<char*>(sc.sp) - sc.size;
  const bool overflow = overflowed(sc);
  if (overflow) {  // re-arm the canary for the stack's next fiber
    auto* words = reinterpret_cast<uint64_t*>(low);
    for (size_t w = 0; w < kCanaryWords; ++w) words[w] = kCanary;
  }
  free_.push_back(low);
  return overflow;
}

namespace {
constexpr size_t kKeptPools = 8;
constexpr size_t kKeptPoolBytes = size_t(256) << 20;  // larger pools go back to the system

struct PoolCache {
  std::mutex mutex;
  std::vector<std::unique_ptr<StackPool>> pools;
};
// Never destroyed: an executor destroyed at exit (the program's device) hands its pool back here.
PoolCache& pool_cache() {
  static PoolCache* cache = new PoolCache;
  return *cache;
}
}  // namespace

void StackPoolReturn::operator()(StackPool* pool) const {
  std::unique_ptr<StackPool> owned(pool);
  if (pool->mapped_bytes() > kKeptPoolBytes) return;
  PoolCache& cache = pool_cache();
  std::lock_guard lock(cache.mutex);
  if (cache.pools.size() < kKeptPools) cache.pools.push_back(std::move(owned));
}

StackPoolHandle take_stack_pool(size_t stack_bytes) {
  PoolCache& cache = pool_cache();
  {
    std::lock_guard lock(cache.mutex);
    for (size_t i = cache.pools.size(); i-- > 0;) {
      if (cache.pools[i]->stack_bytes() != stack_bytes) continue;
      StackPoolHandle pool(cache.pools[i].release());
      cache.pools.erase(cache.pools.begin() + std::ptrdiff_t(i));
      return pool;
    }
  }
  return StackPoolHandle(new StackPool(stack_bytes));
}

}  // namespace coop::emu
