// Fiber stacks for emulated threads. Stacks are carved from large anonymous mappings and recycled
// from block to block: one mapping per stack (with a guard page) would hit the kernel's
// vm.max_map_count long before a large grid ran. Overflow is caught after the fact by a canary
// at the low end of each stack.
//
// Stack tops are staggered ("coloured"): with every top at the same offset modulo 64 KiB, the hot
// frames of all fibers land in the same few cache sets and every switch misses; profiling showed
// three quarters of the switch time in that one miss.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace coop::emu {

class StackPool {
 public:
  explicit StackPool(size_t stack_bytes = 64 * 1024, size_t stacks_per_chunk = 256);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  boost::context::stack_context allocate();
  // Returns the stack to the pool; true if its canary had been overwritten (an overflow).
  bool deallocate(boost::context::stack_context& sc);
  size_t stack_bytes() const { return stack_bytes_; }
  // True if the canary of a stack handed out by this pool was overwritten.
  bool overflowed(const boost::context::stack_context& sc) const;
  size_t mapped_bytes() const { return chunks_.size() * chunk_bytes_; }

 private:
  void grow();
  size_t stack_bytes_;
  size_t per_chunk_;
  size_t chunk_bytes_;
  std::vector<void*> chunks_;
  std::vector<char*> free_;  // low ends of free stacks
  size_t handed_out_ = 0;
};

// Pools outlive launches: the pools of finished workers are kept (a few, of moderate size), so
// back-to-back launches reuse stacks whose pages are already resident instead of faulting in
// fresh ones; on small grids those faults were a third of the launch time.
struct StackPoolReturn {
  void operator()(StackPool* pool) const;
};
using StackPoolHandle = std::unique_ptr<StackPool, StackPoolReturn>;
StackPoolHandle take_stack_pool(size_t stack_bytes);

// The StackAllocator concept Boost.Context expects, forwarding to a pool.
struct PooledStack {
  StackPool* pool;
  boost::context::stack_context allocate() { return pool->allocate(); }
  void deallocate(boost::context::stack_context& sc) { pool->deallocate(sc); }
};

}  // namespace coop::emu
