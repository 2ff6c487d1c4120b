// CUB's device-wide sorts (cub::DeviceRadixSort, cub::DeviceSegmentedRadixSort,
// cub::DeviceSegmentedSort, cub::DeviceMergeSort) for a program on the emulator, run on the host
// when called as cub_device.hpp says. Each gives CUB's order: radix sorts are stable (but for
// DeviceSegmentedSort's unstable forms) and compare keys by their radix pattern within
// [begin_bit, end_bit) (cub_types.hpp); merge sorts order by the program's comparison, the
// StableSort forms stably and the others, which CUB promises no order of equal keys, with them
// reversed. A DoubleBuffer sort leaves its result in the Alternate buffer and
// flips the selector, as CUB may, so Current() holds it either way. A bit range outside the key
// (begin_bit < 0, end_bit > its bits, or begin_bit > end_bit) is cudaErrorInvalidValue.
#pragma once

#include "device/byo/cub_device.hpp"

namespace cub::emulated {

// Sorts keys[first..last) (and values, unless Value is NullType) from `in` into `out`, which may
// be the same buffers: the input is copied before anything is written.
template <class Key, class Value, class Decomposer = WholeKey>
void radix_sort_range(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                      long long first, long long last, int begin_bit, int end_bit, bool descending,
                      Decomposer decomposer = {}, bool stable = true) {
  if (last <= first) return;
  const long long n = last - first;
  reads(keys_in + first, n);
  if constexpr (!std::is_same_v<Value, NullType>) reads(values_in + first, n);
  const std::vector<Key> keys(keys_in + first, keys_in + last);
  const std::vector<long long> order =
      radix_order(keys.data(), n, begin_bit, end_bit, descending, decomposer, stable);
  for (long long k = 0; k < n; ++k) keys_out[first + k] = keys[size_t(order[size_t(k)])];
  if constexpr (!std::is_same_v<Value, NullType>) {
    const std::vector<Value> values(values_in + first, values_in + last);
    for (long long k = 0; k < n; ++k) values_out[first + k] = values[size_t(order[size_t(k)])];
  }
}

// Every segment [begin[s], end[s]) sorted on its own; items outside all segments are left as
// they are in `out` (CUB does not write them either). `stable` as in radix_order().
template <class Key, class Value, class Begin, class End, class Decomposer = WholeKey>
cudaError_t radix_sort(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                       const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                       long long num_segments, Begin begin, End end, int begin_bit, int end_bit,
                       bool descending, Decomposer decomposer = {}, bool stable = true) {
  return on_host(call, d_temp_storage, temp_storage_bytes, [&] {
    if (!radix_range_fits<Key, Decomposer>(begin_bit, end_bit)) return cudaErrorInvalidValue;
    reads(begin, num_segments);
    reads(end, num_segments);
    for (long long s = 0; s < num_segments; ++s)
      radix_sort_range(keys_in, keys_out, values_in, values_out, (long long)begin[s],
                       (long long)end[s], begin_bit, end_bit, descending, decomposer, stable);
    return cudaSuccess;
  });
}

// The whole input as one segment: begin offsets Constant{0}, end offsets Constant{num_items}.
struct Constant {
  long long value;
  long long operator[](long long) const { return value; }
};

// A DoubleBuffer sort: Current() into Alternate(), then the selector flips. An empty bit range
// does no pass, and CUB then leaves the buffers as they are.
template <class Key, class Value, class Begin, class End, class Decomposer = WholeKey>
cudaError_t radix_sort_buffers(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                               DoubleBuffer<Key>& keys, DoubleBuffer<Value>* values,
                               long long num_segments, Begin begin, End end, int begin_bit,
                               int end_bit, bool descending, Decomposer decomposer = {},
                               bool stable = true) {
  const bool sized = d_temp_storage != nullptr && temp_storage_bytes >= kTempStorageBytes;
  const bool passes =
      sized && begin_bit != end_bit && radix_range_fits<Key, Decomposer>(begin_bit, end_bit);
  Value* values_out = values ? values->Alternate() : nullptr;
  const cudaError_t e =
      radix_sort(call, d_temp_storage, temp_storage_bytes, keys.Current(),
                 passes ? keys.Alternate() : keys.Current(), values ? values->Current() : nullptr,
                 passes ? values_out : (values ? values->Current() : nullptr), num_segments, begin,
                 end, begin_bit, end_bit, descending, decomposer, stable);
  if (e == cudaSuccess && passes) {
    keys.selector ^= 1;
    if (values) values->selector ^= 1;
  }
  return e;
}

}  // namespace cub::emulated

namespace cub {

struct DeviceRadixSort {
  template <class KeyT, class ValueT, class NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                               const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                               ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys_in,
                 d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit, false);
  }
  template <class KeyT, class ValueT, class NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys,
                   &d_values, num_items, begin_bit, end_bit, false);
  }
  template <class KeyT, class ValueT, class NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in, KeyT* d_keys_out,
                                         const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                 d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit,
                 true);
  }
  template <class KeyT, class ValueT, class NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                   d_keys, &d_values, num_items, begin_bit, end_bit, true);
  }
  template <class KeyT, class NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                              const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items,
                              int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys_in,
                 d_keys_out, kNoValues, kNoValuesOut, num_items, begin_bit, end_bit, false);
  }
  template <class KeyT, class NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys,
                   static_cast<DoubleBuffer<NullType>*>(nullptr), num_items, begin_bit, end_bit,
                   false);
  }
  template <class KeyT, class NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in, KeyT* d_keys_out,
                                        NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                 d_keys_in, d_keys_out, kNoValues, kNoValuesOut, num_items, begin_bit, end_bit,
                 true);
  }
  template <class KeyT, class NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
                                        int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                        cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                   d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr), num_items, begin_bit,
                   end_bit, true);
  }

  // With a decomposer: a struct key sorted by the members it returns (a std::tuple of references
  // to them, most significant first), over all their bits or bits [begin_bit, end_bit).
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairs(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
      cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys_in,
                 d_keys_out, d_values_in, d_values_out, num_items, 0, all_bits<KeyT, DecomposerT>(),
                 false, decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairs(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
      int begin_bit, int end_bit, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys_in,
                 d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit, false,
                 decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairs(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
      cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys,
                   &d_values, num_items, 0, all_bits<KeyT, DecomposerT>(), false, decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairs(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
      int end_bit, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys,
                   &d_values, num_items, begin_bit, end_bit, false, decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairsDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
      cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                 d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, 0,
                 all_bits<KeyT, DecomposerT>(), true, decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairsDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
      int begin_bit, int end_bit, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                 d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit,
                 true, decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairsDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
      cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                   d_keys, &d_values, num_items, 0, all_bits<KeyT, DecomposerT>(), true,
                   decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortPairsDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
      int end_bit, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                   d_keys, &d_values, num_items, begin_bit, end_bit, true, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeys(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      NumItemsT num_items, DecomposerT decomposer, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys_in,
                 d_keys_out, kNoValues, kNoValuesOut, num_items, 0, all_bits<KeyT, DecomposerT>(),
                 false, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeys(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys_in,
                 d_keys_out, kNoValues, kNoValuesOut, num_items, begin_bit, end_bit, false,
                 decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeys(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      NumItemsT num_items, DecomposerT decomposer, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys,
                   static_cast<DoubleBuffer<NullType>*>(nullptr), num_items, 0,
                   all_bits<KeyT, DecomposerT>(), false, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeys(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys,
                   static_cast<DoubleBuffer<NullType>*>(nullptr), num_items, begin_bit, end_bit,
                   false, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeysDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      NumItemsT num_items, DecomposerT decomposer, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                 d_keys_in, d_keys_out, kNoValues, kNoValuesOut, num_items, 0,
                 all_bits<KeyT, DecomposerT>(), true, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeysDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
      NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t = 0) {
    return pairs("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                 d_keys_in, d_keys_out, kNoValues, kNoValuesOut, num_items, begin_bit, end_bit,
                 true, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeysDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      NumItemsT num_items, DecomposerT decomposer, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                   d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr), num_items, 0,
                   all_bits<KeyT, DecomposerT>(), true, decomposer);
  }
  template <class KeyT, class NumItemsT, class DecomposerT>
  static emulated::if_decomposer<DecomposerT, cudaError_t> SortKeysDescending(
      void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t = 0) {
    return buffers("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                   d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr), num_items, begin_bit,
                   end_bit, true, decomposer);
  }

 private:
  static constexpr const NullType* kNoValues = nullptr;
  static constexpr NullType* kNoValuesOut = nullptr;

  template <class KeyT, class ValueT, class NumItemsT, class Decomposer = emulated::WholeKey>
  static cudaError_t pairs(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                           const KeyT* keys_in, KeyT* keys_out, const ValueT* values_in,
                           ValueT* values_out, NumItemsT num_items, int begin_bit, int end_bit,
                           bool descending, Decomposer decomposer = {}) {
    return emulated::radix_sort(call, d_temp_storage, temp_storage_bytes, keys_in, keys_out,
                                values_in, values_out, 1, emulated::Constant{0},
                                emulated::Constant{(long long)num_items}, begin_bit, end_bit,
                                descending, decomposer);
  }
  template <class KeyT, class ValueT, class NumItemsT, class Decomposer = emulated::WholeKey>
  static cudaError_t buffers(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                             DoubleBuffer<KeyT>& keys, DoubleBuffer<ValueT>* values,
                             NumItemsT num_items, int begin_bit, int end_bit, bool descending,
                             Decomposer decomposer = {}) {
    return emulated::radix_sort_buffers(
        call, d_temp_storage, temp_storage_bytes, keys, values, 1, emulated::Constant{0},
        emulated::Constant{(long long)num_items}, begin_bit, end_bit, descending, decomposer);
  }
  template <class KeyT, class Decomposer>
  static constexpr int all_bits() {
    return emulated::radix_key_bits<KeyT, Decomposer>();
  }
};

// The segments [d_begin_offsets[s], d_end_offsets[s]) each sorted as DeviceRadixSort sorts.
struct DeviceSegmentedRadixSort {
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                               const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                               ValueT* d_values_out, int num_items, int num_segments,
                               Begin d_begin_offsets, End d_end_offsets, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    (void)num_items;
    return emulated::radix_sort("cub::DeviceSegmentedRadixSort::SortPairs", d_temp_storage,
                                temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                d_values_out, num_segments, d_begin_offsets, d_end_offsets,
                                begin_bit, end_bit, false);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in, KeyT* d_keys_out,
                                         const ValueT* d_values_in, ValueT* d_values_out,
                                         int num_items, int num_segments, Begin d_begin_offsets,
                                         End d_end_offsets, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    (void)num_items;
    return emulated::radix_sort("cub::DeviceSegmentedRadixSort::SortPairsDescending",
                                d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                d_values_in, d_values_out, num_segments, d_begin_offsets,
                                d_end_offsets, begin_bit, end_bit, true);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                              const KeyT* d_keys_in, KeyT* d_keys_out, int num_items,
                              int num_segments, Begin d_begin_offsets, End d_end_offsets,
                              int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    (void)num_items;
    return emulated::radix_sort(
        "cub::DeviceSegmentedRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys_in,
        d_keys_out, static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr),
        num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, false);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in, KeyT* d_keys_out, int num_items,
                                        int num_segments, Begin d_begin_offsets, End d_end_offsets,
                                        int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                        cudaStream_t = 0) {
    (void)num_items;
    return emulated::radix_sort("cub::DeviceSegmentedRadixSort::SortKeysDescending", d_temp_storage,
                                temp_storage_bytes, d_keys_in, d_keys_out,
                                static_cast<const NullType*>(nullptr),
                                static_cast<NullType*>(nullptr), num_segments, d_begin_offsets,
                                d_end_offsets, begin_bit, end_bit, true);
  }
  // DoubleBuffer forms: each segment from Current() into Alternate(), then the selectors flip.
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                               int num_items, int num_segments, Begin d_begin_offsets,
                               End d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                               cudaStream_t = 0) {
    return buffers("cub::DeviceSegmentedRadixSort::SortPairs", d_temp_storage, temp_storage_bytes,
                   d_keys, &d_values, num_items, num_segments, d_begin_offsets, d_end_offsets,
                   begin_bit, end_bit, false);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         int num_items, int num_segments, Begin d_begin_offsets,
                                         End d_end_offsets, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return buffers("cub::DeviceSegmentedRadixSort::SortPairsDescending", d_temp_storage,
                   temp_storage_bytes, d_keys, &d_values, num_items, num_segments, d_begin_offsets,
                   d_end_offsets, begin_bit, end_bit, true);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys, int num_items, int num_segments,
                              Begin d_begin_offsets, End d_end_offsets, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return buffers("cub::DeviceSegmentedRadixSort::SortKeys", d_temp_storage, temp_storage_bytes,
                   d_keys, kNoValues, num_items, num_segments, d_begin_offsets, d_end_offsets,
                   begin_bit, end_bit, false);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, int num_items, int num_segments,
                                        Begin d_begin_offsets, End d_end_offsets, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t = 0) {
    return buffers("cub::DeviceSegmentedRadixSort::SortKeysDescending", d_temp_storage,
                   temp_storage_bytes, d_keys, kNoValues, num_items, num_segments, d_begin_offsets,
                   d_end_offsets, begin_bit, end_bit, true);
  }

 private:
  static constexpr DoubleBuffer<NullType>* kNoValues = nullptr;

  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t buffers(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                             DoubleBuffer<KeyT>& keys, DoubleBuffer<ValueT>* values, int num_items,
                             int num_segments, Begin begin, End end, int begin_bit, int end_bit,
                             bool descending) {
    (void)num_items;
    return emulated::radix_sort_buffers(call, d_temp_storage, temp_storage_bytes, keys, values,
                                        num_segments, begin, end, begin_bit, end_bit, descending);
  }
};

// The segments [d_begin_offsets[s], d_end_offsets[s]) each sorted by the whole key, in the order
// DeviceRadixSort gives: stably by the StableSort forms, and by the Sort forms, which CUB promises
// no order of equal keys, with equal keys in reverse input order. A DoubleBuffer sort leaves the
// result in Alternate() and flips the selectors, as DeviceRadixSort's do.
struct DeviceSegmentedSort {
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                              const KeyT* d_keys_in, KeyT* d_keys_out, int64_t num_items,
                              int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                              cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys_in,
                d_keys_out, kNoValues, kNoValuesOut, num_items, num_segments, d_begin_offsets,
                d_end_offsets, false, false);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys, int64_t num_items, int64_t num_segments,
                              Begin d_begin_offsets, End d_end_offsets, cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::SortKeys", d_temp_storage, temp_storage_bytes,
                        d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr), num_segments,
                        d_begin_offsets, d_end_offsets, false, false);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                               const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                               ValueT* d_values_out, int64_t num_items, int64_t num_segments,
                               Begin d_begin_offsets, End d_end_offsets, cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::SortPairs", d_temp_storage, temp_storage_bytes,
                d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, num_segments,
                d_begin_offsets, d_end_offsets, false, false);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                               int64_t num_items, int64_t num_segments, Begin d_begin_offsets,
                               End d_end_offsets, cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::SortPairs", d_temp_storage, temp_storage_bytes,
                        d_keys, &d_values, num_segments, d_begin_offsets, d_end_offsets, false,
                        false);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in, KeyT* d_keys_out, int64_t num_items,
                                        int64_t num_segments, Begin d_begin_offsets,
                                        End d_end_offsets, cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::SortKeysDescending", d_temp_storage, temp_storage_bytes,
                d_keys_in, d_keys_out, kNoValues, kNoValuesOut, num_items, num_segments,
                d_begin_offsets, d_end_offsets, true, false);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, int64_t num_items,
                                        int64_t num_segments, Begin d_begin_offsets,
                                        End d_end_offsets, cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::SortKeysDescending", d_temp_storage,
                        temp_storage_bytes, d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr),
                        num_segments, d_begin_offsets, d_end_offsets, true, false);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in, KeyT* d_keys_out,
                                         const ValueT* d_values_in, ValueT* d_values_out,
                                         int64_t num_items, int64_t num_segments,
                                         Begin d_begin_offsets, End d_end_offsets,
                                         cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, num_segments,
                d_begin_offsets, d_end_offsets, true, false);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         int64_t num_items, int64_t num_segments,
                                         Begin d_begin_offsets, End d_end_offsets,
                                         cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::SortPairsDescending", d_temp_storage,
                        temp_storage_bytes, d_keys, &d_values, num_segments, d_begin_offsets,
                        d_end_offsets, true, false);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                    const KeyT* d_keys_in, KeyT* d_keys_out, int64_t num_items,
                                    int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                                    cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::StableSortKeys", d_temp_storage, temp_storage_bytes,
                d_keys_in, d_keys_out, kNoValues, kNoValuesOut, num_items, num_segments,
                d_begin_offsets, d_end_offsets, false, true);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                    DoubleBuffer<KeyT>& d_keys, int64_t num_items,
                                    int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                                    cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::StableSortKeys", d_temp_storage,
                        temp_storage_bytes, d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr),
                        num_segments, d_begin_offsets, d_end_offsets, false, true);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                                     const KeyT* d_keys_in, KeyT* d_keys_out,
                                     const ValueT* d_values_in, ValueT* d_values_out,
                                     int64_t num_items, int64_t num_segments, Begin d_begin_offsets,
                                     End d_end_offsets, cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::StableSortPairs", d_temp_storage, temp_storage_bytes,
                d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, num_segments,
                d_begin_offsets, d_end_offsets, false, true);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                                     DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                     int64_t num_items, int64_t num_segments, Begin d_begin_offsets,
                                     End d_end_offsets, cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::StableSortPairs", d_temp_storage,
                        temp_storage_bytes, d_keys, &d_values, num_segments, d_begin_offsets,
                        d_end_offsets, false, true);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t StableSortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                              const KeyT* d_keys_in, KeyT* d_keys_out,
                                              int64_t num_items, int64_t num_segments,
                                              Begin d_begin_offsets, End d_end_offsets,
                                              cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::StableSortKeysDescending", d_temp_storage,
                temp_storage_bytes, d_keys_in, d_keys_out, kNoValues, kNoValuesOut, num_items,
                num_segments, d_begin_offsets, d_end_offsets, true, true);
  }
  template <class KeyT, class Begin, class End>
  static cudaError_t StableSortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                              DoubleBuffer<KeyT>& d_keys, int64_t num_items,
                                              int64_t num_segments, Begin d_begin_offsets,
                                              End d_end_offsets, cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::StableSortKeysDescending", d_temp_storage,
                        temp_storage_bytes, d_keys, static_cast<DoubleBuffer<NullType>*>(nullptr),
                        num_segments, d_begin_offsets, d_end_offsets, true, true);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t StableSortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                               const KeyT* d_keys_in, KeyT* d_keys_out,
                                               const ValueT* d_values_in, ValueT* d_values_out,
                                               int64_t num_items, int64_t num_segments,
                                               Begin d_begin_offsets, End d_end_offsets,
                                               cudaStream_t = 0) {
    return sort("cub::DeviceSegmentedSort::StableSortPairsDescending", d_temp_storage,
                temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                num_segments, d_begin_offsets, d_end_offsets, true, true);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t StableSortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                               DoubleBuffer<KeyT>& d_keys,
                                               DoubleBuffer<ValueT>& d_values, int64_t num_items,
                                               int64_t num_segments, Begin d_begin_offsets,
                                               End d_end_offsets, cudaStream_t = 0) {
    return sort_buffers("cub::DeviceSegmentedSort::StableSortPairsDescending", d_temp_storage,
                        temp_storage_bytes, d_keys, &d_values, num_segments, d_begin_offsets,
                        d_end_offsets, true, true);
  }

 private:
  static constexpr const NullType* kNoValues = nullptr;
  static constexpr NullType* kNoValuesOut = nullptr;

  // By the whole key; the Sort forms with equal keys reversed (radix_order), as CUB's promise no
  // order of them, and the StableSort forms `stable`.
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t sort(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                          const KeyT* keys_in, KeyT* keys_out, const ValueT* values_in,
                          ValueT* values_out, int64_t num_items, int64_t num_segments, Begin begin,
                          End end, bool descending, bool stable) {
    (void)num_items;
    return emulated::radix_sort(call, d_temp_storage, temp_storage_bytes, keys_in, keys_out,
                                values_in, values_out, num_segments, begin, end, 0,
                                int(sizeof(KeyT) * 8), descending, emulated::WholeKey{}, stable);
  }
  template <class KeyT, class ValueT, class Begin, class End>
  static cudaError_t sort_buffers(const char* call, void* d_temp_storage,
                                  size_t& temp_storage_bytes, DoubleBuffer<KeyT>& keys,
                                  DoubleBuffer<ValueT>* values, int64_t num_segments, Begin begin,
                                  End end, bool descending, bool stable) {
    return emulated::radix_sort_buffers(call, d_temp_storage, temp_storage_bytes, keys, values,
                                        num_segments, begin, end, 0, int(sizeof(KeyT) * 8),
                                        descending, emulated::WholeKey{}, stable);
  }
};

struct DeviceMergeSort {
  template <class KeyIt, class ValueIt, class OffsetT, class CompareOpT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIt d_keys,
                               ValueIt d_items, OffsetT num_items, CompareOpT compare_op,
                               cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys,
                d_items, d_keys, d_items, num_items, compare_op, false);
  }
  template <class KeyIn, class ValueIn, class KeyIt, class ValueIt, class OffsetT, class CompareOpT>
  static cudaError_t SortPairsCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                   KeyIn d_input_keys, ValueIn d_input_items, KeyIt d_output_keys,
                                   ValueIt d_output_items, OffsetT num_items, CompareOpT compare_op,
                                   cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::SortPairsCopy", d_temp_storage, temp_storage_bytes,
                d_input_keys, d_input_items, d_output_keys, d_output_items, num_items, compare_op,
                false);
  }
  template <class KeyIt, class OffsetT, class CompareOpT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIt d_keys,
                              OffsetT num_items, CompareOpT compare_op, cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys,
                kNoItems, d_keys, kNoItems, num_items, compare_op, false);
  }
  template <class KeyIn, class KeyIt, class OffsetT, class CompareOpT>
  static cudaError_t SortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                  KeyIn d_input_keys, KeyIt d_output_keys, OffsetT num_items,
                                  CompareOpT compare_op, cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::SortKeysCopy", d_temp_storage, temp_storage_bytes,
                d_input_keys, kNoItems, d_output_keys, kNoItems, num_items, compare_op, false);
  }
  template <class KeyIt, class ValueIt, class OffsetT, class CompareOpT>
  static cudaError_t StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIt d_keys,
                                     ValueIt d_items, OffsetT num_items, CompareOpT compare_op,
                                     cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::StableSortPairs", d_temp_storage, temp_storage_bytes, d_keys,
                d_items, d_keys, d_items, num_items, compare_op, true);
  }
  template <class KeyIt, class OffsetT, class CompareOpT>
  static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIt d_keys,
                                    OffsetT num_items, CompareOpT compare_op, cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::StableSortKeys", d_temp_storage, temp_storage_bytes, d_keys,
                kNoItems, d_keys, kNoItems, num_items, compare_op, true);
  }
  template <class KeyIn, class KeyIt, class OffsetT, class CompareOpT>
  static cudaError_t StableSortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                        KeyIn d_input_keys, KeyIt d_output_keys, OffsetT num_items,
                                        CompareOpT compare_op, cudaStream_t = 0) {
    return sort("cub::DeviceMergeSort::StableSortKeysCopy", d_temp_storage, temp_storage_bytes,
                d_input_keys, kNoItems, d_output_keys, kNoItems, num_items, compare_op, true);
  }

 private:
  static constexpr NullType* kNoItems = nullptr;

  // Under compare_op; the Stable forms `stable`, the others with equal keys reversed
  // (comparison_order), as CUB promises them no order of equal keys.
  template <class KeyIn, class ValueIn, class KeyOut, class ValueOut, class CompareOpT>
  static cudaError_t sort(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                          KeyIn keys_in, ValueIn items_in, KeyOut keys_out, ValueOut items_out,
                          long long num_items, CompareOpT compare_op, bool stable) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      using Key = emulated::value_of<KeyIn>;
      const long long n = std::max(num_items, 0LL);
      emulated::reads(keys_in, n);
      const std::vector<Key> keys(keys_in, keys_in + n);
      const std::vector<long long> order =
          emulated::comparison_order(keys.data(), n, compare_op, stable);
      for (size_t k = 0; k < order.size(); ++k) keys_out[k] = keys[size_t(order[k])];
      if constexpr (!std::is_same_v<ValueIn, NullType*>) {
        emulated::reads(items_in, n);
        const std::vector<emulated::value_of<ValueIn>> items(items_in, items_in + n);
        for (size_t k = 0; k < order.size(); ++k) items_out[k] = items[size_t(order[k])];
      }
      return cudaSuccess;
    });
  }
};

// Two sorted sequences merged into one under compare_op (keys, or keys with their values). CUB's
// merge is unstable; this one takes equal keys from the first input first.
struct DeviceMerge {
  template <class KeyIn1, class KeyIn2, class KeyOut, class CompareOp = std::less<>>
  static cudaError_t MergeKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIn1 keys_in1,
                               int64_t num_keys1, KeyIn2 keys_in2, int64_t num_keys2,
                               KeyOut keys_out, CompareOp compare_op = {}, cudaStream_t = nullptr) {
    return merge("cub::DeviceMerge::MergeKeys", d_temp_storage, temp_storage_bytes, keys_in1,
                 static_cast<NullType*>(nullptr), num_keys1, keys_in2,
                 static_cast<NullType*>(nullptr), num_keys2, keys_out,
                 static_cast<NullType*>(nullptr), compare_op);
  }
  template <class KeyIn1, class ValueIn1, class KeyIn2, class ValueIn2, class KeyOut,
            class ValueOut, class CompareOp = std::less<>>
  static cudaError_t MergePairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIn1 keys_in1,
                                ValueIn1 values_in1, int64_t num_pairs1, KeyIn2 keys_in2,
                                ValueIn2 values_in2, int64_t num_pairs2, KeyOut keys_out,
                                ValueOut values_out, CompareOp compare_op = {},
                                cudaStream_t = nullptr) {
    return merge("cub::DeviceMerge::MergePairs", d_temp_storage, temp_storage_bytes, keys_in1,
                 values_in1, num_pairs1, keys_in2, values_in2, num_pairs2, keys_out, values_out,
                 compare_op);
  }

 private:
  template <class KeyIn1, class ValueIn1, class KeyIn2, class ValueIn2, class KeyOut,
            class ValueOut, class CompareOp>
  static cudaError_t merge(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                           KeyIn1 keys1, ValueIn1 values1, int64_t n1, KeyIn2 keys2,
                           ValueIn2 values2, int64_t n2, KeyOut keys_out, ValueOut values_out,
                           CompareOp compare_op) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      constexpr bool kPairs = !std::is_same_v<ValueOut, NullType*>;
      emulated::reads(keys1, n1);
      emulated::reads(keys2, n2);
      if constexpr (kPairs) {
        emulated::reads(values1, n1);
        emulated::reads(values2, n2);
      }
      int64_t a = 0, b = 0;
      for (int64_t out = 0; a < n1 || b < n2; ++out) {
        // The second input's key goes first only when it is ordered before the first's.
        const bool second = a == n1 || (b < n2 && compare_op(keys2[b], keys1[a]));
        keys_out[out] = second ? keys2[b] : keys1[a];
        if constexpr (kPairs) values_out[out] = second ? values2[b] : values1[a];
        ++(second ? b : a);
      }
      return cudaSuccess;
    });
  }
};

}  // namespace cub
