#include "device/trace/vector_clock.hpp"

#include <algorithm>

namespace coop {
namespace {

using Entry = VectorClock::Entry;

bool by_id(const Entry& a, const Entry& b) {
  return a.first < b.first;
}

// Both sorted by id: the union, with the larger value where an id is in both.
std::vector<Entry> merge_max(const std::vector<Entry>& a, const std::vector<Entry>& b) {
  std::vector<Entry> out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.push_back(b[j++]);
    } else {
      out.emplace_back(a[i].first, std::max(a[i].second, b[j].second));
      ++i, ++j;
    }
  }
  return out;
}

void merge_into(std::vector<Entry>& into, const std::vector<Entry>& from) {
  if (from.empty()) return;
  if (into.empty()) {
    into = from;
    return;
  }
  into = merge_max(into, from);
}

}  // namespace

uint32_t VectorClock::lookup(const std::vector<Entry>& entries, uint32_t id) {
  auto it = std::lower_bound(entries.begin(), entries.end(), Entry{id, 0}, by_id);
  return it != entries.end() && it->first == id ? it->second : 0;
}

void VectorClock::raise(std::vector<Entry>& entries, uint32_t id, uint32_t value) {
  auto it = std::lower_bound(entries.begin(), entries.end(), Entry{id, 0}, by_id);
  if (it != entries.end() && it->first == id)
    it->second = std::max(it->second, value);
  else
    entries.insert(it, Entry{id, value});
}

void VectorClock::join(const VectorClock& other) {
  grid_ = std::max(grid_, other.grid_);
  merge_into(blocks_, other.blocks_);
  merge_into(clusters_, other.clusters_);
  merge_into(threads_, other.threads_);
}

void VectorClock::raise_thread(uint32_t t, uint32_t value) {
  raise(threads_, t, value);
}

void VectorClock::raise_threads(std::vector<Entry>& entries) {
  if (entries.empty()) return;
  std::sort(entries.begin(), entries.end());
  // Of equal ids the largest value is last: keep that one.
  std::vector<Entry> unique;
  unique.reserve(entries.size());
  for (const Entry& e : entries) {
    if (!unique.empty() && unique.back().first == e.first)
      unique.back().second = e.second;
    else
      unique.push_back(e);
  }
  merge_into(threads_, unique);
}

void VectorClock::raise_grid(uint32_t phases) {
  grid_ = std::max(grid_, phases);
}
void VectorClock::raise_block(uint32_t b, uint32_t phases) {
  raise(blocks_, b, phases);
}
void VectorClock::raise_cluster(uint32_t c, uint32_t phases) {
  raise(clusters_, c, phases);
}

void VectorClock::forget_threads(uint32_t first, uint32_t end) {
  auto lo = std::lower_bound(threads_.begin(), threads_.end(), Entry{first, 0}, by_id);
  auto hi = std::lower_bound(lo, threads_.end(), Entry{end, 0}, by_id);
  threads_.erase(lo, hi);
}

void VectorClock::forget_below_grid() {
  threads_.clear();
  blocks_.clear();
  clusters_.clear();
}

}  // namespace coop
