// What one thread of a launch knows to have happened before its current point: a vector clock
// kept small for GPU launches. A barrier phase that every thread of a block (cluster, grid) took
// part in is kept as one number, "phase E of block B completed", instead of one clock per thread:
// every access a thread of B made before it arrived at that phase happened before. Threads that
// meet through anything narrower (tiles, warps, split barriers, atomics, fences) are kept by
// their own clocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace coop {

class VectorClock {
 public:
  using Entry = std::pair<uint32_t, uint32_t>;  // (id, value)

  // Complete phases of grid-wide barriers known to have completed.
  uint32_t grid() const { return grid_; }
  // Complete phases of block `b`'s (cluster `c`'s) barriers known to have completed.
  uint32_t block(uint32_t b) const { return lookup(blocks_, b); }
  uint32_t cluster(uint32_t c) const { return lookup(clusters_, c); }
  // The clock of `thread` up to which its events are known to have happened before.
  uint32_t thread(uint32_t t) const { return lookup(threads_, t); }

  // Takes the larger value of every entry.
  void join(const VectorClock& other);
  // Raises one entry (to `value` when it is below).
  void raise_thread(uint32_t t, uint32_t value);
  // Raises many threads' entries at once (cheaper than one raise each); `entries` is reordered.
  void raise_threads(std::vector<Entry>& entries);
  void raise_grid(uint32_t phases);
  void raise_block(uint32_t b, uint32_t phases);
  void raise_cluster(uint32_t c, uint32_t phases);
  // Forgets the threads [first, end): a complete phase they all took part in says more.
  void forget_threads(uint32_t first, uint32_t end);
  // Forgets every thread and block: a complete grid phase says more.
  void forget_below_grid();

  size_t thread_entries() const { return threads_.size(); }

 private:
  static uint32_t lookup(const std::vector<Entry>& entries, uint32_t id);
  static void raise(std::vector<Entry>& entries, uint32_t id, uint32_t value);

  uint32_t grid_ = 0;
  std::vector<Entry> blocks_, clusters_, threads_;  // sorted by id
};

}  // namespace coop
