#include "device/trace/race_shadow.hpp"

#include <algorithm>
#include <bit>

#include "device/trace/memory_access.hpp"

namespace coop::race {
namespace {

constexpr uint64_t kWordBytes = 4;

// Bytes [first, end) of the access that fall in word `w`, as a mask of the word's bytes.
uint8_t bytes_in_word(uint64_t w, uint64_t first, uint64_t end) {
  const uint64_t lo = std::max(first, w * kWordBytes), hi = std::min(end, (w + 1) * kWordBytes);
  uint8_t mask = 0;
  for (uint64_t b = lo; b < hi; ++b) mask |= uint8_t(1u << (b - w * kWordBytes));
  return mask;
}

// Two accesses conflict when one writes and they are not both atomic.
bool conflict(AccessKind a, AccessKind b) {
  if (a == AccessKind::Atomic && b == AccessKind::Atomic) return false;
  return a != AccessKind::Read || b != AccessKind::Read;
}

// Whether a later access `x`, ordered after `y` and covering its bytes, makes `y` unneeded: every
// later access that conflicts with `y` unordered also conflicts with `x` unordered. A plain write
// conflicts with everything; an atomic only with plain accesses, a read only with writes.
bool supersedes(const Stamp& x, const Stamp& y) {
  if (y.bytes & ~x.bytes) return false;
  if (x.kind == AccessKind::Write) return true;
  return x.kind == y.kind;
}

RaceAccess side(const Stamp& s, bool copy_pending) {
  return RaceAccess{s.thread, s.line, s.kind, s.sequence, s.copy != 0, copy_pending};
}

}  // namespace

std::vector<uint32_t> clusters_of_blocks(const LaunchConfig& launch) {
  const Dim3 g = launch.grid;
  const Dim3 c = launch.mode == LaunchMode::Cluster ? launch.cluster : Dim3{1, 1, 1};
  const uint32_t cx = std::max(1u, g.x / std::max(1u, c.x));
  const uint32_t cy = std::max(1u, g.y / std::max(1u, c.y));
  std::vector<uint32_t> out(g.count());
  for (uint64_t b = 0; b < out.size(); ++b) {
    const uint32_t x = uint32_t(b % g.x), y = uint32_t(b / g.x % g.y), z = uint32_t(b / g.x / g.y);
    out[b] = x / std::max(1u, c.x) + cx * (y / std::max(1u, c.y) + cy * (z / std::max(1u, c.z)));
  }
  return out;
}

WrittenWords::WrittenWords(const Trace& trace, uint32_t block_threads) {
  size_t writes = 0;
  const auto writes_memory = [](const Event& e) {
    return e.kind == EventKind::Store || e.kind == EventKind::Atomic ||
           (e.kind == EventKind::CopyIssue && e.rank == 0);
  };
  for (const Event& e : trace.events) writes += writes_memory(e);
  // About 16 bits a written word: few reads of unwritten words meet a collision.
  const size_t bits = std::bit_ceil(std::clamp<size_t>(writes * 16, 1u << 12, size_t(1) << 30));
  bits_.assign(bits / 64, 0);
  mask_ = bits - 1;
  for (const Event& e : trace.events) {
    if (!writes_memory(e)) continue;
    const bool shared = in_shared_memory(e);
    const WordKey first{shared, shared ? shared_owner(e, block_threads) : 0, 0};
    mark(first, shared_offset_of(e), e.kind == EventKind::CopyIssue ? e.extra : access_bytes(e));
  }
}

void WrittenWords::mark(const WordKey& first_word, uint64_t address, uint32_t bytes) {
  WordKey key = first_word;
  for (key.word = address / kWordBytes; key.word * kWordBytes < address + bytes; ++key.word)
    bits_[bit(key) / 64] |= uint64_t(1) << (bit(key) % 64);
}

bool WrittenWords::any(const WordKey& first_word, uint64_t address, uint32_t bytes) const {
  WordKey key = first_word;
  for (key.word = address / kWordBytes; key.word * kWordBytes < address + bytes; ++key.word)
    if (bits_[bit(key) / 64] >> (bit(key) % 64) & 1) return true;
  return false;
}

ShadowMemory::ShadowMemory(const Trace& trace, const std::vector<ThreadState>& threads)
    : trace_(trace),
      threads_(threads),
      block_threads_(uint32_t(std::max<uint64_t>(trace.header.launch.block.count(), 1))),
      cluster_of_block_(clusters_of_blocks(trace.header.launch)),
      written_(trace, block_threads_) {}

void ShadowMemory::observe(uint32_t t, const WordKey& key, uint32_t first, uint32_t last) {
  if (last < first || last == 0) return;
  // Older chains stay observed: a thread that saw a later write was not misled by earlier ones.
  auto [it, fresh] = observed_[t].try_emplace(key, Observed{first, last});
  if (!fresh)
    it->second = Observed{std::min(it->second.first, first), std::max(it->second.last, last)};
}

bool ShadowMemory::ordered(const Stamp& before, uint32_t t, const WordKey& key) const {
  if (before.pending) return false;
  if (before.thread == t) return true;
  if (before.write_index && !observed_.empty()) {
    if (auto it = observed_.find(t); it != observed_.end())
      if (auto w = it->second.find(key); w != it->second.end())
        if (before.write_index >= w->second.first && before.write_index <= w->second.last)
          return true;
  }
  const VectorClock& known = *threads_[t].known;
  if (known.grid() > before.grid) return true;
  const uint32_t block = before.thread / block_threads_;
  if (known.block(block) > before.block) return true;
  if (block < cluster_of_block_.size() && known.cluster(cluster_of_block_[block]) > before.cluster)
    return true;
  return known.thread(before.thread) >= before.clock;
}

void ShadowMemory::access(const WordKey& first_word, uint64_t address, uint32_t bytes,
                          const Stamp& stamp) {
  if (stamp.kind == AccessKind::Read && !written_.any(first_word, address, bytes)) return;
  const uint64_t end = address + bytes;
  for (uint64_t w = address / kWordBytes; w * kWordBytes < end; ++w) {
    WordKey key = first_word;
    key.word = w;
    Stamp x = stamp;
    x.bytes = bytes_in_word(w, address, end);
    std::vector<Stamp>& kept = words_[key];
    for (const Stamp& y : kept)
      if ((y.bytes & x.bytes) && conflict(y.kind, x.kind) && !ordered(y, x.thread, key))
        report(key, uint32_t(std::countr_zero(unsigned(y.bytes & x.bytes))), y, x,
               uint32_t(std::popcount(unsigned(y.bytes & x.bytes))));
    std::erase_if(kept,
                  [&](const Stamp& y) { return supersedes(x, y) && ordered(y, x.thread, key); });
    kept.push_back(x);
  }
}

void ShadowMemory::complete_copy(uint32_t copy, const WordKey& first_word, uint64_t address,
                                 uint32_t bytes, const Stamp& done) {
  for (uint64_t w = address / kWordBytes; w * kWordBytes < address + bytes; ++w) {
    WordKey key = first_word;
    key.word = w;
    auto it = words_.find(key);
    if (it == words_.end()) continue;
    for (Stamp& s : it->second) {
      if (s.copy != copy || !s.pending) continue;
      // The copy's line and sequence stay its issue's: that is where a student finds it.
      s.pending = false;
      s.thread = done.thread;
      s.clock = done.clock;
      s.grid = done.grid;
      s.block = done.block;
      s.cluster = done.cluster;
    }
  }
}

void ShadowMemory::report(const WordKey& key, uint32_t byte, const Stamp& first,
                          const Stamp& second, uint32_t pairs) {
  // One report per pair of lines, whichever of the two came first.
  const uint16_t lo = std::min(first.line, second.line), hi = std::max(first.line, second.line);
  auto [it, fresh] = races_.try_emplace({key.shared, lo, hi});
  Race& r = it->second;
  if (fresh) {
    r.kernel = trace_.header.kernel;
    r.space = key.shared ? MemorySpace::Shared : MemorySpace::Global;
    r.address = key.word * kWordBytes + byte;
    r.block = key.block;
    r.first = side(first, first.pending);
    r.second = side(second, false);
  }
  r.byte_pairs += pairs;
}

std::vector<Race> ShadowMemory::races() const {
  std::vector<Race> out;
  for (const auto& [key, race] : races_) out.push_back(race);
  std::sort(out.begin(), out.end(),
            [](const Race& a, const Race& b) { return a.second.sequence < b.second.sequence; });
  return out;
}

}  // namespace coop::race
