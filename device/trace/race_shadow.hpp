// The race detector's memory side (race_detector.hpp): per 4-byte word of shared or global
// memory, the accesses a later access must be ordered after, and the races found, one per pair of
// lines and space.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "device/trace/race_detector.hpp"
#include "device/trace/vector_clock.hpp"

namespace coop::race {

// What a thread has done and knows, as the detector walks the trace.
struct ThreadState {
  std::shared_ptr<const VectorClock> known;  // what happened before its current point
  uint32_t clock = 1;                        // its own clock: raised after each release
  // Complete barrier phases of the grid, its block and its cluster it has passed.
  uint32_t grid = 0, block = 0, cluster = 0;
  bool ended = false;
};

// One access as the shadow memory keeps it: who, at which clock, having passed which phases.
struct Stamp {
  uint32_t thread = 0, clock = 0, grid = 0, block = 0, cluster = 0;
  uint32_t sequence = 0;
  uint32_t copy = 0;         // the memcpy_async (1-based) whose write or read this is; 0: none
  uint32_t write_index = 0;  // an atomic write: its place (1-based) in its word's atomic writes
  uint16_t line = 0;
  AccessKind kind = AccessKind::Read;
  uint8_t bytes = 0;     // bit i: byte i of the word
  bool pending = false;  // a copy not completed yet: nothing after it is ordered after it
};

// Where a word lives: shared memory of one block, or global memory.
struct WordKey {
  bool shared = false;
  uint32_t block = 0;
  uint64_t word = 0;  // address / 4
  bool operator==(const WordKey&) const = default;
};
struct WordKeyHash {
  size_t operator()(const WordKey& k) const {
    return std::hash<uint64_t>()(k.word * 0x9e3779b97f4a7c15ull ^ (uint64_t(k.block) << 1) ^
                                 uint64_t(k.shared));
  }
};

// The words that some access of a launch may write: its stores, its atomics (the detector takes
// every atomic as a possible writer) and its asynchronous copies' destinations, as a hashed bit
// set. A collision can only make a word look written.
class WrittenWords {
 public:
  WrittenWords(const Trace& trace, uint32_t block_threads);
  bool any(const WordKey& first_word, uint64_t address, uint32_t bytes) const;

 private:
  size_t bit(const WordKey& key) const { return WordKeyHash()(key) & mask_; }
  void mark(const WordKey& first_word, uint64_t address, uint32_t bytes);

  std::vector<uint64_t> bits_;
  size_t mask_ = 0;
};

class ShadowMemory {
 public:
  ShadowMemory(const Trace& trace, const std::vector<ThreadState>& threads);

  // Checks an access of `bytes` bytes at `address` against what came before, then keeps it.
  void access(const WordKey& first_word, uint64_t address, uint32_t bytes, const Stamp& stamp);
  // A copy's accesses complete: from now on they are as if `by` made them at `done`.
  void complete_copy(uint32_t copy, const WordKey& first_word, uint64_t address, uint32_t bytes,
                     const Stamp& done);

  // Whether `before`, kept for word `key`, happened before the current point of thread `t`.
  bool ordered(const Stamp& before, uint32_t t, const WordKey& key) const;

  // Thread `t` read word `key` atomically, seeing its atomic writes [first, last] (an atomic
  // store and the read-modify-writes after it): those writes are ordered before what `t` does
  // next (PTX's observation order), though not what their threads did before them.
  void observe(uint32_t t, const WordKey& key, uint32_t first, uint32_t last);

  std::vector<Race> races() const;

 private:
  void report(const WordKey& key, uint32_t byte, const Stamp& first, const Stamp& second,
              uint32_t pairs);

  const Trace& trace_;
  const std::vector<ThreadState>& threads_;
  uint32_t block_threads_;
  std::vector<uint32_t> cluster_of_block_;
  // A plain read of a word nothing writes races with nothing, and is not kept: a word that every
  // thread reads, a kernel's input, would otherwise keep one stamp per reader, and each read
  // would be checked against all of them.
  WrittenWords written_;
  std::unordered_map<WordKey, std::vector<Stamp>, WordKeyHash> words_;
  struct Observed {
    uint32_t first = 0, last = 0;
  };
  std::unordered_map<uint32_t, std::unordered_map<WordKey, Observed, WordKeyHash>> observed_;
  std::map<std::tuple<bool, uint16_t, uint16_t>, Race> races_;  // (shared, lower line, higher)
};

// The cluster (linear index) of each block of the launch: a block's own index without clusters.
std::vector<uint32_t> clusters_of_blocks(const LaunchConfig& launch);

}  // namespace coop::race
