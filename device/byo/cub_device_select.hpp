// CUB's device-wide selection, partition, run-length encoding and histograms (cub::DeviceSelect,
// cub::DevicePartition, cub::DeviceRunLengthEncode, cub::DeviceHistogram) for a program on the
// emulator, run on the host when called as cub_device.hpp says, with CUB's documented results:
// selected items keep their order and their count goes to d_num_selected_out; a two-way
// partition puts the unselected items at the back of d_out in reverse order; a histogram's bins
// are zeroed and then count the samples in [lower, upper) (HistogramEven, a sample's bin being
// (sample - lower) * bins / (upper - lower) in integers, or by the reciprocal in floating point,
// as CUB computes it) or between consecutive d_levels (HistogramRange).
#pragma once

#include <algorithm>
#include <functional>
#include <type_traits>

#include "device/byo/cub_device.hpp"

namespace cub::emulated {

// Flag k of a selection's flags, all of which the call reads (checked when the first is read).
template <class Flags>
decltype(auto) flag(Flags d_flags, long long num_items, long long k) {
  if (k == 0) reads(d_flags, num_items);
  return d_flags[k];
}

// Copies the items `keep(items, k)` picks from d_in to d_out in order (the input is read whole
// first, as the in-place forms need), and returns how many. partition() puts the others at the
// back of d_out, last first.
template <class In, class Out, class Keep>
long long select(In d_in, Out d_out, long long num_items, Keep keep) {
  reads(d_in, num_items);
  const std::vector<value_of<In>> items(d_in, d_in + std::max(num_items, 0LL));
  long long selected = 0;
  for (long long k = 0; k < num_items; ++k)
    if (keep(items, k)) d_out[selected++] = items[size_t(k)];
  return selected;
}

template <class In, class Out, class Keep>
long long partition(In d_in, Out d_out, long long num_items, Keep keep) {
  reads(d_in, num_items);
  const std::vector<value_of<In>> items(d_in, d_in + std::max(num_items, 0LL));
  long long selected = 0, rejected = 0;
  for (long long k = 0; k < num_items; ++k) {
    if (keep(items, k))
      d_out[selected++] = items[size_t(k)];
    else
      d_out[num_items - 1 - rejected++] = items[size_t(k)];
  }
  return selected;
}

// The bin of `sample` among `bins` even bins over [lower, upper), or -1 outside them.
template <class Sample, class Level>
int even_bin(Sample sample, Level lower, Level upper, int bins) {
  using Common = std::common_type_t<Sample, Level>;
  const Common s = Common(sample), lo = Common(lower), hi = Common(upper);
  if (!(s >= lo && s < hi)) return -1;
  if constexpr (std::is_floating_point_v<Common>) {
    const Common reciprocal = Common(Common(bins) / Common(hi - lo));
    return std::min(int((s - lo) * reciprocal), bins - 1);
  } else {
    return int((__int128(s - lo) * bins) / __int128(hi - lo));
  }
}

}  // namespace cub::emulated

namespace cub {

struct DeviceSelect {
  template <class In, class Flags, class Out, class NumSelected>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                             Flags d_flags, Out d_out, NumSelected d_num_selected_out,
                             int64_t num_items, cudaStream_t = 0) {
    return pick("cub::DeviceSelect::Flagged", d_temp_storage, temp_storage_bytes, d_in, d_out,
                d_num_selected_out, num_items, [&](const auto&, long long k) {
                  return bool(emulated::flag(d_flags, num_items, k));
                });
  }
  template <class Data, class Flags, class NumSelected>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                             Flags d_flags, NumSelected d_num_selected_out, int64_t num_items,
                             cudaStream_t stream = 0) {
    return Flagged(d_temp_storage, temp_storage_bytes, d_data, d_flags, d_data, d_num_selected_out,
                   num_items, stream);
  }
  template <class In, class Out, class NumSelected, class SelectOp>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                        NumSelected d_num_selected_out, int64_t num_items, SelectOp select_op,
                        cudaStream_t = 0) {
    return pick("cub::DeviceSelect::If", d_temp_storage, temp_storage_bytes, d_in, d_out,
                d_num_selected_out, num_items,
                [&](const auto& items, long long k) { return bool(select_op(items[size_t(k)])); });
  }
  template <class Data, class NumSelected, class SelectOp>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                        NumSelected d_num_selected_out, int64_t num_items, SelectOp select_op,
                        cudaStream_t stream = 0) {
    return If(d_temp_storage, temp_storage_bytes, d_data, d_data, d_num_selected_out, num_items,
              select_op, stream);
  }
  // The items whose flag select_op accepts.
  template <class In, class Flags, class Out, class NumSelected, class SelectOp>
  static cudaError_t FlaggedIf(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                               Flags d_flags, Out d_out, NumSelected d_num_selected_out,
                               int64_t num_items, SelectOp select_op, cudaStream_t = 0) {
    return pick("cub::DeviceSelect::FlaggedIf", d_temp_storage, temp_storage_bytes, d_in, d_out,
                d_num_selected_out, num_items, [&](const auto&, long long k) {
                  return bool(select_op(emulated::flag(d_flags, num_items, k)));
                });
  }
  template <class Data, class Flags, class NumSelected, class SelectOp>
  static cudaError_t FlaggedIf(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                               Flags d_flags, NumSelected d_num_selected_out, int64_t num_items,
                               SelectOp select_op, cudaStream_t stream = 0) {
    return FlaggedIf(d_temp_storage, temp_storage_bytes, d_data, d_flags, d_data,
                     d_num_selected_out, num_items, select_op, stream);
  }
  // The first item of each run of equal consecutive items.
  template <class In, class Out, class NumSelected>
  static cudaError_t Unique(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                            NumSelected d_num_selected_out, int64_t num_items, cudaStream_t = 0) {
    return pick("cub::DeviceSelect::Unique", d_temp_storage, temp_storage_bytes, d_in, d_out,
                d_num_selected_out, num_items, [](const auto& items, long long k) {
                  return k == 0 || !(items[size_t(k)] == items[size_t(k - 1)]);
                });
  }
  // The first key of each run of consecutive keys equality_op finds equal, with its value.
  template <class KeysIn, class ValuesIn, class KeysOut, class ValuesOut, class NumSelected,
            class NumItemsT, class EqualityOpT>
  static std::enable_if_t<!std::is_convertible_v<EqualityOpT, cudaStream_t>, cudaError_t>
  UniqueByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysIn d_keys_in,
              ValuesIn d_values_in, KeysOut d_keys_out, ValuesOut d_values_out,
              NumSelected d_num_selected_out, NumItemsT num_items, EqualityOpT equality_op,
              cudaStream_t = 0) {
    return emulated::on_host("cub::DeviceSelect::UniqueByKey", d_temp_storage, temp_storage_bytes,
                             [&] {
                               long long selected = 0;
                               emulated::runs(d_keys_in, (long long)num_items, equality_op,
                                              [&](long long first, long long) {
                                                // The run's first value, the one it keeps.
                                                emulated::reads(d_values_in + first, 1);
                                                d_keys_out[selected] = d_keys_in[first];
                                                d_values_out[selected] = d_values_in[first];
                                                ++selected;
                                              });
                               *d_num_selected_out = selected;
                               return cudaSuccess;
                             });
  }
  template <class KeysIn, class ValuesIn, class KeysOut, class ValuesOut, class NumSelected,
            class NumItemsT>
  static cudaError_t UniqueByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysIn d_keys_in,
                                 ValuesIn d_values_in, KeysOut d_keys_out, ValuesOut d_values_out,
                                 NumSelected d_num_selected_out, NumItemsT num_items,
                                 cudaStream_t stream = 0) {
    return UniqueByKey(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_keys_out,
                       d_values_out, d_num_selected_out, num_items, std::equal_to<>{}, stream);
  }

 private:
  template <class In, class Out, class NumSelected, class Keep>
  static cudaError_t pick(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                          In d_in, Out d_out, NumSelected d_num_selected_out, int64_t num_items,
                          Keep keep) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      *d_num_selected_out = emulated::select(d_in, d_out, num_items, keep);
      return cudaSuccess;
    });
  }
};

struct DevicePartition {
  template <class In, class Flags, class Out, class NumSelected, class NumItemsT>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                             Flags d_flags, Out d_out, NumSelected d_num_selected_out,
                             NumItemsT num_items, cudaStream_t = 0) {
    return split("cub::DevicePartition::Flagged", d_temp_storage, temp_storage_bytes, d_in, d_out,
                 d_num_selected_out, num_items, [&](const auto&, long long k) {
                   return bool(emulated::flag(d_flags, num_items, k));
                 });
  }
  template <class In, class Out, class NumSelected, class SelectOp, class NumItemsT>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                        NumSelected d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t = 0) {
    return split("cub::DevicePartition::If", d_temp_storage, temp_storage_bytes, d_in, d_out,
                 d_num_selected_out, num_items,
                 [&](const auto& items, long long k) { return bool(select_op(items[size_t(k)])); });
  }
  // Three ways: the items the first operator selects, then those the second selects, each in
  // order, and the rest in order to d_unselected_out; the two counts to d_num_selected_out[0, 1].
  template <class In, class FirstOut, class SecondOut, class UnselectedOut, class NumSelected,
            class FirstOp, class SecondOp, class NumItemsT>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                        FirstOut d_first_part_out, SecondOut d_second_part_out,
                        UnselectedOut d_unselected_out, NumSelected d_num_selected_out,
                        NumItemsT num_items, FirstOp select_first_part_op,
                        SecondOp select_second_part_op, cudaStream_t = 0) {
    return emulated::on_host("cub::DevicePartition::If", d_temp_storage, temp_storage_bytes, [&] {
      emulated::reads(d_in, (long long)num_items);
      const std::vector<emulated::value_of<In>> items(d_in,
                                                      d_in + std::max((long long)num_items, 0LL));
      long long first = 0, second = 0, rest = 0;
      for (const auto& item : items) {
        if (select_first_part_op(item))
          d_first_part_out[first++] = item;
        else if (select_second_part_op(item))
          d_second_part_out[second++] = item;
        else
          d_unselected_out[rest++] = item;
      }
      d_num_selected_out[0] = first;
      d_num_selected_out[1] = second;
      return cudaSuccess;
    });
  }

 private:
  template <class In, class Out, class NumSelected, class Keep>
  static cudaError_t split(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                           In d_in, Out d_out, NumSelected d_num_selected_out, long long num_items,
                           Keep keep) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      *d_num_selected_out = emulated::partition(d_in, d_out, num_items, keep);
      return cudaSuccess;
    });
  }
};

struct DeviceRunLengthEncode {
  // Each run's item and length, and the number of runs.
  template <class In, class UniqueOut, class LengthsOut, class NumRunsOut>
  static cudaError_t Encode(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                            UniqueOut d_unique_out, LengthsOut d_counts_out,
                            NumRunsOut d_num_runs_out, int num_items, cudaStream_t = 0) {
    return encode("cub::DeviceRunLengthEncode::Encode", d_temp_storage, temp_storage_bytes, d_in,
                  d_num_runs_out, num_items, 1,
                  [&](long long run, long long first, long long length) {
                    d_unique_out[run] = d_in[first];
                    d_counts_out[run] = length;
                  });
  }
  // The offset and length of each run longer than one item, and how many there are.
  template <class In, class OffsetsOut, class LengthsOut, class NumRunsOut>
  static cudaError_t NonTrivialRuns(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                    OffsetsOut d_offsets_out, LengthsOut d_lengths_out,
                                    NumRunsOut d_num_runs_out, int num_items, cudaStream_t = 0) {
    return encode("cub::DeviceRunLengthEncode::NonTrivialRuns", d_temp_storage, temp_storage_bytes,
                  d_in, d_num_runs_out, num_items, 2,
                  [&](long long run, long long first, long long length) {
                    d_offsets_out[run] = first;
                    d_lengths_out[run] = length;
                  });
  }

 private:
  // `write(run, first, length)` for each run of at least `shortest` items, numbered from 0; how
  // many to d_num_runs_out.
  template <class In, class NumRunsOut, class Write>
  static cudaError_t encode(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                            In d_in, NumRunsOut d_num_runs_out, int num_items, int shortest,
                            Write write) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      long long count = 0;
      emulated::runs(d_in, num_items, std::equal_to<>{}, [&](long long first, long long length) {
        if (length >= shortest) write(count++, first, length);
      });
      *d_num_runs_out = count;
      return cudaSuccess;
    });
  }
};

// Every form is the multi-channel one: pixels of NUM_CHANNELS samples each, of which the first
// NUM_ACTIVE_CHANNELS are counted, each in its own histogram, in rows of num_row_pixels pixels
// row_stride_bytes apart (the one-channel, one-row forms as CUB defines them from it). Each
// channel's histogram array is d_histogram[c] (a C array of pointers or a cuda::std::array).
struct DeviceHistogram {
  template <class Samples, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes,
                                   Samples d_samples, CounterT* d_histogram, int num_levels,
                                   LevelT lower_level, LevelT upper_level, OffsetT num_samples,
                                   cudaStream_t = 0) {
    return even<1, 1>("cub::DeviceHistogram::HistogramEven", d_temp_storage, temp_storage_bytes,
                      d_samples, &d_histogram, &num_levels, &lower_level, &upper_level, num_samples,
                      1, row_bytes<1>(d_samples, num_samples));
  }
  template <class Samples, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes,
                                   Samples d_samples, CounterT* d_histogram, int num_levels,
                                   LevelT lower_level, LevelT upper_level, OffsetT num_row_samples,
                                   OffsetT num_rows, size_t row_stride_bytes, cudaStream_t = 0) {
    return even<1, 1>("cub::DeviceHistogram::HistogramEven", d_temp_storage, temp_storage_bytes,
                      d_samples, &d_histogram, &num_levels, &lower_level, &upper_level,
                      num_row_samples, num_rows, row_stride_bytes);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Lower, class Upper, class OffsetT>
  static cudaError_t MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes,
                                        Samples d_samples, Histograms d_histogram,
                                        NumLevels num_levels, Lower lower_level, Upper upper_level,
                                        OffsetT num_pixels, cudaStream_t = 0) {
    return even<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        "cub::DeviceHistogram::MultiHistogramEven", d_temp_storage, temp_storage_bytes, d_samples,
        d_histogram, num_levels, lower_level, upper_level, num_pixels, 1,
        row_bytes<NUM_CHANNELS>(d_samples, num_pixels));
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Lower, class Upper, class OffsetT>
  static cudaError_t MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes,
                                        Samples d_samples, Histograms d_histogram,
                                        NumLevels num_levels, Lower lower_level, Upper upper_level,
                                        OffsetT num_row_pixels, OffsetT num_rows,
                                        size_t row_stride_bytes, cudaStream_t = 0) {
    return even<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        "cub::DeviceHistogram::MultiHistogramEven", d_temp_storage, temp_storage_bytes, d_samples,
        d_histogram, num_levels, lower_level, upper_level, num_row_pixels, num_rows,
        row_stride_bytes);
  }

  template <class Samples, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes,
                                    Samples d_samples, CounterT* d_histogram, int num_levels,
                                    const LevelT* d_levels, OffsetT num_samples, cudaStream_t = 0) {
    return range<1, 1>("cub::DeviceHistogram::HistogramRange", d_temp_storage, temp_storage_bytes,
                       d_samples, &d_histogram, &num_levels, &d_levels, num_samples, 1,
                       row_bytes<1>(d_samples, num_samples));
  }
  template <class Samples, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes,
                                    Samples d_samples, CounterT* d_histogram, int num_levels,
                                    const LevelT* d_levels, OffsetT num_row_samples,
                                    OffsetT num_rows, size_t row_stride_bytes, cudaStream_t = 0) {
    return range<1, 1>("cub::DeviceHistogram::HistogramRange", d_temp_storage, temp_storage_bytes,
                       d_samples, &d_histogram, &num_levels, &d_levels, num_row_samples, num_rows,
                       row_stride_bytes);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Levels, class OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes,
                                         Samples d_samples, Histograms d_histogram,
                                         NumLevels num_levels, Levels d_levels, OffsetT num_pixels,
                                         cudaStream_t = 0) {
    return range<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        "cub::DeviceHistogram::MultiHistogramRange", d_temp_storage, temp_storage_bytes, d_samples,
        d_histogram, num_levels, d_levels, num_pixels, 1,
        row_bytes<NUM_CHANNELS>(d_samples, num_pixels));
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Levels, class OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes,
                                         Samples d_samples, Histograms d_histogram,
                                         NumLevels num_levels, Levels d_levels,
                                         OffsetT num_row_pixels, OffsetT num_rows,
                                         size_t row_stride_bytes, cudaStream_t = 0) {
    return range<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        "cub::DeviceHistogram::MultiHistogramRange", d_temp_storage, temp_storage_bytes, d_samples,
        d_histogram, num_levels, d_levels, num_row_pixels, num_rows, row_stride_bytes);
  }

 private:
  // The bytes of one row of `pixels` pixels, the whole input of the one-row forms.
  template <int NUM_CHANNELS, class Samples>
  static size_t row_bytes(Samples, long long pixels) {
    return size_t(std::max(pixels, 0LL)) * NUM_CHANNELS * sizeof(emulated::value_of<Samples>);
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Lower, class Upper>
  static cudaError_t even(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                          Samples d_samples, Histograms d_histogram, NumLevels num_levels,
                          Lower lower_level, Upper upper_level, long long num_row_pixels,
                          long long num_rows, size_t row_stride_bytes) {
    return count<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        call, d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels,
        num_row_pixels, num_rows, row_stride_bytes, [&](int channel, auto sample) {
          return emulated::even_bin(sample, lower_level[channel], upper_level[channel],
                                    num_levels[channel] - 1);
        });
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Levels>
  static cudaError_t range(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                           Samples d_samples, Histograms d_histogram, NumLevels num_levels,
                           Levels d_levels, long long num_row_pixels, long long num_rows,
                           size_t row_stride_bytes) {
    bool levels_read[NUM_ACTIVE_CHANNELS] = {};
    return count<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        call, d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels,
        num_row_pixels, num_rows, row_stride_bytes, [&](int channel, auto sample) {
          // The last level not above the sample: bin i holds [levels[i], levels[i+1]).
          const auto* levels = &d_levels[channel][0];
          const int n = num_levels[channel];
          if (!levels_read[channel]) emulated::reads(levels, n);  // once per channel
          levels_read[channel] = true;
          using LevelT = std::remove_cv_t<std::remove_reference_t<decltype(levels[0])>>;
          const long long bin = (std::upper_bound(levels, levels + n, LevelT(sample)) - levels) - 1;
          return bin >= 0 && bin < n - 1 ? int(bin) : -1;
        });
  }

  // Zeroes each active channel's bins, then counts each of its samples in the bin bin_of(channel,
  // sample) gives (none for -1).
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class Samples, class Histograms,
            class NumLevels, class Bin>
  static cudaError_t count(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                           Samples d_samples, Histograms d_histogram, NumLevels num_levels,
                           long long num_row_pixels, long long num_rows, size_t row_stride_bytes,
                           Bin bin_of) {
    static_assert(NUM_ACTIVE_CHANNELS >= 1 && NUM_ACTIVE_CHANNELS <= NUM_CHANNELS,
                  "a histogram counts 1 to NUM_CHANNELS of each pixel's channels");
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
        if (num_levels[c] < 2) return cudaErrorInvalidValue;  // CUB needs at least one bin
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c) {
        using CounterT = std::remove_reference_t<decltype(d_histogram[c][0])>;
        std::fill(d_histogram[c], d_histogram[c] + (num_levels[c] - 1), CounterT(0));
      }
      const long long row_samples =
          (long long)(row_stride_bytes / sizeof(emulated::value_of<Samples>));
      // What the call reads of each row: all of it when every channel counts, else each pixel's
      // active channels (its first NUM_ACTIVE_CHANNELS samples; the others are never read).
      for (long long row = 0; row < num_rows; ++row) {
        const Samples first = d_samples + row * row_samples;
        if constexpr (NUM_ACTIVE_CHANNELS == NUM_CHANNELS)
          emulated::reads(first, num_row_pixels * NUM_CHANNELS);
        else
          for (long long pixel = 0; pixel < num_row_pixels; ++pixel)
            emulated::reads(first + pixel * NUM_CHANNELS, NUM_ACTIVE_CHANNELS);
      }
      for (long long row = 0; row < num_rows; ++row)
        for (long long pixel = 0; pixel < num_row_pixels; ++pixel)
          for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c) {
            const auto sample = d_samples[row * row_samples + pixel * NUM_CHANNELS + c];
            if (const int bin = bin_of(c, sample); bin >= 0) ++d_histogram[c][bin];
          }
      return cudaSuccess;
    });
  }
};

}  // namespace cub
