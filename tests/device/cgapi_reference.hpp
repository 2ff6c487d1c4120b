// CPU references for the traced-API feature cases: the values each group operation must give,
// combined in the order the GPU uses (see device/emu/cg/collectives.hpp for the orders), written
// independently of the emulator so that both backends are checked against them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace coop::testing::ref {

// Groups of n consecutive values, each combined by an xor butterfly: out[i] = op(mine, partner).
template <class T, class F>
std::vector<T> butterfly(std::vector<T> v, size_t n, F op) {
  for (size_t base = 0; base < v.size(); base += n)
    for (size_t step = n / 2; step >= 1; step /= 2) {
      std::vector<T> before(v.begin() + base, v.begin() + base + n);
      for (size_t i = 0; i < n; ++i) v[base + i] = op(before[i], before[i ^ step]);
    }
  return v;
}

// Groups of n consecutive values (the last may be shorter), each scanned Hillis-Steele style.
template <class T, class F>
std::vector<T> inclusive(std::vector<T> v, size_t n, F op) {
  for (size_t base = 0; base < v.size(); base += n) {
    const size_t len = std::min(n, v.size() - base);
    for (size_t d = 1; d < len; d *= 2) {
      std::vector<T> before(v.begin() + base, v.begin() + base + len);
      for (size_t i = d; i < len; ++i) v[base + i] = op(before[i], before[i - d]);
    }
  }
  return v;
}

// Exclusive from inclusive within groups of n: shift up by one, value-initialized first.
template <class T>
std::vector<T> shift(const std::vector<T>& incl, size_t n) {
  std::vector<T> out(incl.size());
  for (size_t i = 0; i < incl.size(); ++i) out[i] = i % n == 0 ? T{} : incl[i - 1];
  return out;
}

// Tiles of `size` > 32 threads: each warp by butterfly, then the warps' results by butterfly.
template <class T, class F>
std::vector<T> multiwarp_reduce(const std::vector<T>& v, size_t size, F op) {
  const std::vector<T> warp = butterfly(v, 32, op);
  std::vector<T> parts;
  for (size_t i = 0; i < v.size(); i += 32) parts.push_back(warp[i]);
  const std::vector<T> combined = butterfly(parts, size / 32, op);
  std::vector<T> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = combined[i / 32];
  return out;
}

// Multi-warp tiles: warp scans, scan of the warp totals, op(own, prefix of earlier warps).
// `size` is the tile size.
template <class T, class F>
std::vector<T> multiwarp_scan(const std::vector<T>& v, size_t size, bool exclusive, F op) {
  std::vector<T> out(v.size());
  for (size_t base = 0; base < v.size(); base += size) {
    const size_t len = std::min(size, v.size() - base);
    std::vector<T> part(v.begin() + base, v.begin() + base + len);
    const std::vector<T> warp = inclusive(part, 32, op);
    std::vector<T> totals;
    for (size_t w = 0; w * 32 < len; ++w) totals.push_back(warp[std::min(len, w * 32 + 32) - 1]);
    totals = inclusive(totals, totals.size(), op);
    for (size_t i = 0; i < len; ++i) {
      const size_t w = i / 32, lane = i % 32;
      if (!exclusive) out[base + i] = w == 0 ? warp[i] : op(warp[i], totals[w - 1]);
      else if (lane == 0) out[base + i] = w == 0 ? T{} : totals[w - 1];
      else out[base + i] = w == 0 ? warp[i - 1] : op(warp[i - 1], totals[w - 1]);
    }
  }
  return out;
}

}  // namespace coop::testing::ref
