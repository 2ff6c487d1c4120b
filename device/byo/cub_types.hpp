// CUB's small types (cub::KeyValuePair, cub::DoubleBuffer, cub::NullType) and the order radix
// sorts give keys, shared by the emulator's cub::DeviceRadixSort and cub::BlockRadixSort.
// Radix sorting compares bit patterns, not values: a signed key has its sign bit flipped, a
// floating-point one (float, double, __half, __nv_bfloat16) its sign bit (positive) or every bit
// (negative), -0.0 counts as +0.0, a descending sort inverts the result, and only bits
// [begin_bit, end_bit) of that count, as CUB documents (cub/device/device_radix_sort.cuh). So
// NaNs with the sign bit clear sort after +infinity, those with it set before -infinity. Equal
// digits keep their input order.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// CUB's headers bring in the 16-bit floating-point types, which its radix sorts take as keys.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cub {

struct NullType {
  using value_type = NullType;
};

template <typename _Key, typename _Value>  // NOLINT: CUB's names
struct KeyValuePair {
  using Key = _Key;
  using Value = _Value;
  Key key;
  Value value;
  KeyValuePair() {}
  KeyValuePair(Key const& k, Value const& v) : key(k), value(v) {}
  bool operator!=(const KeyValuePair& b) { return value != b.value || key != b.key; }
};

// Two buffers a sort moves between; the result is in Current() when it returns.
template <typename T>
struct DoubleBuffer {
  T* d_buffers[2]{};
  int selector = 0;
  DoubleBuffer() = default;
  DoubleBuffer(T* d_current, T* d_alternate) : d_buffers{d_current, d_alternate} {}
  T* Current() { return d_buffers[selector]; }
  T* Alternate() { return d_buffers[selector ^ 1]; }
};

// CUB's ArgMax and ArgMin operators: the larger (smaller) value, the lower key on a tie.
struct ArgMax {
  template <typename T, typename OffsetT>
  KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                      const KeyValuePair<OffsetT, T>& b) const {
    return (b.value > a.value || (a.value == b.value && b.key < a.key)) ? b : a;
  }
};
struct ArgMin {
  template <typename T, typename OffsetT>
  KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                      const KeyValuePair<OffsetT, T>& b) const {
    return (b.value < a.value || (a.value == b.value && b.key < a.key)) ? b : a;
  }
};

namespace emulated {

// Keys sorted as floating-point bit patterns.
template <class Key>
inline constexpr bool radix_float =
    std::is_floating_point_v<Key> || std::is_same_v<Key, ::__half> ||
    std::is_same_v<Key, ::__nv_bfloat16>;

template <class Key>
inline constexpr bool radix_sortable = std::is_arithmetic_v<Key> || radix_float<Key>;

// The unsigned pattern radix sorting orders `key` by, before the bit range is taken.
template <class Key>
uint64_t radix_bits(Key key, bool descending) {
  static_assert(radix_sortable<Key>,
                "coopviz: on the emulator, CUB's radix sorts take the built-in integer and "
                "floating-point key types, __half and __nv_bfloat16, and a decomposer's "
                "members of those types");
  using Bits = std::conditional_t<
      sizeof(Key) == 1, uint8_t,
      std::conditional_t<sizeof(Key) == 2, uint16_t,
                         std::conditional_t<sizeof(Key) == 4, uint32_t, uint64_t>>>;
  constexpr Bits sign = Bits(Bits(1) << (sizeof(Key) * 8 - 1));
  Bits bits = 0;
  std::memcpy(&bits, &key, sizeof(Key));
  if constexpr (radix_float<Key>) {
    if (bits == sign) bits = 0;  // -0.0 sorts as +0.0
    bits = (bits & sign) ? Bits(~bits) : Bits(bits ^ sign);
  } else if constexpr (std::is_signed_v<Key>) {
    bits = Bits(bits ^ sign);
  }
  if (descending) bits = Bits(~bits);
  return bits;
}

// A key as CUB's radix sorts see it without a decomposer: itself, one member.
struct WholeKey {
  template <class Key>
  std::tuple<Key&> operator()(Key& key) const {
    return {key};
  }
};

// A radix sort's overload taking a decomposer (returning Result), as CUB's: one whose argument is
// no bit number.
template <class Decomposer, class Result = void>
using if_decomposer = std::enable_if_t<!std::is_convertible_v<Decomposer, int>, Result>;

// The bits of a key that `Decomposer` splits into members (a tuple of references to them, most
// significant first, as a program's decomposer returns them): their sizes' sum.
template <class Key, class Decomposer = WholeKey>
constexpr int radix_key_bits() {
  using Members = std::invoke_result_t<Decomposer&, Key&>;
  return []<size_t... Index>(std::index_sequence<Index...>) {
    return (0 + ... +
            int(sizeof(std::remove_reference_t<std::tuple_element_t<Index, Members>>) * 8));
  }
  (std::make_index_sequence<std::tuple_size_v<Members>>{});
}

// Whether [begin_bit, end_bit) lies within a key's bits, as CUB requires.
template <class Key, class Decomposer = WholeKey>
bool radix_range_fits(int begin_bit, int end_bit) {
  return begin_bit >= 0 && begin_bit <= end_bit && end_bit <= radix_key_bits<Key, Decomposer>();
}

// An unstable sort's order from a stable one's (`order`, the input index of each output
// position): each run of entries `same(a, b)` finds equal to the run's first reversed, one of
// the orders an unstable sort may give and never a stable one's, so that a program counting on
// a stability its sort does not promise is not told its results are right.
template <class Same>
void reverse_equal_runs(std::vector<long long>& order, Same same) {
  for (size_t first = 0; first < order.size();) {
    size_t last = first + 1;
    while (last < order.size() && same(order[first], order[last])) ++last;
    std::reverse(order.begin() + long(first), order.begin() + long(last));
    first = last;
  }
}

// The order of `keys[0..n)` under the program's comparison `less` (a merge sort's): stable, or
// (not `stable`) with equal keys, those neither of which is less, in reverse input order.
template <class Key, class Less>
std::vector<long long> comparison_order(const Key* keys, long long n, Less& less, bool stable) {
  std::vector<long long> order(size_t(std::max(n, 0LL)));
  std::iota(order.begin(), order.end(), 0LL);
  const auto before = [&](long long a, long long b) {
    return bool(less(keys[size_t(a)], keys[size_t(b)]));
  };
  std::stable_sort(order.begin(), order.end(), before);
  if (!stable) reverse_equal_runs(order, [&](long long a, long long b) { return !before(a, b); });
  return order;
}

// The stable order of `keys[0..n)` by bits [begin_bit, end_bit) of their radix pattern: the
// input index of each output position. With a decomposer the pattern is its members' patterns
// (each as a key of its own type), the first member's highest; bit 0 is the last member's lowest.
// Not `stable`: keys that compare equal in reverse input order (reverse_equal_runs).
template <class Key, class Decomposer = WholeKey>
std::vector<long long> radix_order(const Key* keys, long long n, int begin_bit, int end_bit,
                                   bool descending, Decomposer decomposer = {},
                                   bool stable = true) {
  constexpr int kBits = radix_key_bits<Key, Decomposer>();
  constexpr size_t kWords = (kBits + 63) / 64;
  // Word w of the pattern keeps bits [64w, 64w + 64) that lie within [begin_bit, end_bit).
  std::array<uint64_t, kWords> keep{};
  for (int bit = begin_bit; bit < end_bit; ++bit)
    keep[size_t(bit / 64)] |= uint64_t(1) << (bit % 64);
  const size_t count = size_t(std::max(n, 0LL));
  std::vector<std::array<uint64_t, kWords>> digits(count);
  for (size_t k = 0; k < count; ++k) {
    Key key = keys[k];
    std::array<uint64_t, kWords>& d = digits[k];
    int at = kBits;  // past the member being placed
    std::apply(
        [&](auto&... member) {
          auto place = [&](const auto& m) {
            const int width = int(sizeof(m) * 8);
            at -= width;
            const uint64_t bits = radix_bits(m, descending);
            d[size_t(at / 64)] |= bits << (at % 64);
            if (at % 64 + width > 64) d[size_t(at / 64) + 1] |= bits >> (64 - at % 64);
          };
          (place(member), ...);
        },
        decomposer(key));
    for (size_t w = 0; w < kWords; ++w) d[w] &= keep[w];
  }
  std::vector<long long> order(count);
  std::iota(order.begin(), order.end(), 0LL);
  std::stable_sort(order.begin(), order.end(), [&](long long a, long long b) {
    const auto& x = digits[size_t(a)];
    const auto& y = digits[size_t(b)];
    return std::lexicographical_compare(x.rbegin(), x.rend(), y.rbegin(), y.rend());
  });
  if (!stable)
    reverse_equal_runs(
        order, [&](long long a, long long b) { return digits[size_t(a)] == digits[size_t(b)]; });
  return order;
}

}  // namespace emulated
}  // namespace cub
