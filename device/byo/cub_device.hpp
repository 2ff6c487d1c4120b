// CUB's device-wide reductions and scans (cub::DeviceReduce, cub::DeviceScan) for a program on
// the emulator. CUB's own launch kernels written for the GPU (PTX, which a host compiler cannot
// read), so here the work is done on the host, in order, when the call is made (the emulator's
// streams run in order), and nothing is traced: the first call of each says so in one line.
// The two-call idiom holds as in CUB: a null d_temp_storage asks for temp_storage_bytes, and a
// second call with storage of that size does the work; storage smaller than asked for is
// cudaErrorInvalidValue, as CUB reports it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "device/byo/cub_block.hpp"
#include "device/byo/cub_types.hpp"

namespace cub::emulated {

// What a device-wide call asks of its temporary storage: a byte, so that the program's
// cudaMalloc of it is an ordinary allocation.
inline constexpr size_t kTempStorageBytes = 1;

// The first half of the two-call idiom, or a check of the second's storage. `done` is set when
// the call has nothing more to do (only the size was asked for, or the storage is too small).
inline cudaError_t temp_storage(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                                bool& done) {
  ::coop::byo::library_on_host(call);
  done = true;
  if (!d_temp_storage) {
    temp_storage_bytes = kTempStorageBytes;
    return cudaSuccess;
  }
  if (temp_storage_bytes < kTempStorageBytes) return cudaErrorInvalidValue;
  done = false;
  return cudaSuccess;
}

// The device-wide call running on the host, for reports of what it reads.
inline thread_local const char* t_call = nullptr;

// The two-call idiom around `work` (which returns a cudaError_t): it runs on the second call
// only, given storage of the size the first asked for.
template <class Work>
cudaError_t on_host(const char* call, void* d_temp_storage, size_t& temp_storage_bytes, Work work) {
  bool done = false;
  if (cudaError_t e = temp_storage(call, d_temp_storage, temp_storage_bytes, done); done) return e;
  struct Running {
    const char* was;
    ~Running() { t_call = was; }
  } running{std::exchange(t_call, call)};
  return work();
}

// The running call reads items [0, count) of `in` (check_read): the host's reads of device
// memory are not checked one by one (and its bulk copies are not seen at all), so each range is,
// once, before the call reads it.
template <class In>
void reads(In in, long long count) {
  check_read(in, count, t_call ? t_call : "CUB");
}

// Combines the inputs from `init`, or (`from_first`) from the first input, `init` then being what
// no input gives (CUB's Max and Min of nothing are the type's lowest and highest values).
template <class In, class Out, class Op, class Value>
cudaError_t reduce(const char* call, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                   Out d_out, long long num_items, Op op, Value init, bool from_first = false) {
  return on_host(call, d_temp_storage, temp_storage_bytes, [&] {
    reads(d_in, num_items);
    const bool first = from_first && num_items > 0;
    Value total = first ? Value(d_in[0]) : init;
    for (long long k = first ? 1 : 0; k < num_items; ++k) total = op(total, Value(d_in[k]));
    *d_out = total;
    return cudaSuccess;
  });
}

// An exclusive scan starts from `initial`; an inclusive one (`initial` null) from the first input.
template <class In, class Out, class Op, class Value>
cudaError_t scan(const char* call, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                 Out d_out, long long num_items, Op op, const Value* initial) {
  return on_host(call, d_temp_storage, temp_storage_bytes, [&] {
    if (num_items <= 0) return cudaSuccess;
    reads(d_in, num_items);
    Value running = initial ? *initial : Value(d_in[0]);
    for (long long k = 0; k < num_items; ++k) {
      const Value input = Value(d_in[k]);  // read first: the scan may be in place
      if (initial) {
        d_out[k] = running;
        running = op(running, input);
      } else {
        if (k > 0) running = op(running, input);
        d_out[k] = running;
      }
    }
    return cudaSuccess;
  });
}

template <class In>
using value_of = typename std::iterator_traits<In>::value_type;

// Runs of consecutive items `equal` finds equal (each to the one before it, as CUB compares
// them): `run(first, length)` for each. The input is read whole first, as in-place forms need.
template <class In, class Equal, class Run>
void runs(In d_in, long long num_items, Equal equal, Run run) {
  reads(d_in, num_items);
  const std::vector<value_of<In>> items(d_in, d_in + std::max(num_items, 0LL));
  for (long long first = 0; first < num_items;) {
    long long last = first + 1;
    while (last < num_items && equal(items[size_t(last - 1)], items[size_t(last)])) ++last;
    run(first, last - first);
    first = last;
  }
}

// The first position of the largest (`max`) or smallest input, as CUB's ArgMax and ArgMin
// operators find it: an equal value later on does not replace it. `empty` is what no input gives.
template <class In, class Value>
KeyValuePair<long long, Value> arg_extremum(In d_in, long long num_items, bool max, Value empty) {
  if (num_items <= 0) return {1, empty};
  reads(d_in, num_items);
  KeyValuePair<long long, Value> best{0, Value(d_in[0])};
  for (long long k = 1; k < num_items; ++k) {
    const Value v = Value(d_in[k]);
    if (max ? best.value < v : v < best.value) best = {k, v};
  }
  return best;
}

}  // namespace cub::emulated

namespace cub {

struct DeviceReduce {
 private:
  template <class In>
  static emulated::value_of<In> lowest() {
    return std::numeric_limits<emulated::value_of<In>>::lowest();
  }
  template <class In>
  static emulated::value_of<In> highest() {
    return std::numeric_limits<emulated::value_of<In>>::max();
  }

 public:
  template <class In, class Out, class N>
  static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         N num_items, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Sum", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, ::coop::cuda::std::plus<>{},
                            emulated::value_of<In>{});
  }
  template <class In, class Out, class N>
  static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         N num_items, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Max", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, ::coop::cuda::maximum<>{}, lowest<In>(), true);
  }
  template <class In, class Out, class N>
  static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         N num_items, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Min", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, ::coop::cuda::minimum<>{}, highest<In>(), true);
  }
  template <class In, class Out, class N, class Op, class T>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                            N num_items, Op op, T init, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Reduce", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, op, init);
  }
  template <class In, class Out, class N, class Op, class Transform, class T>
  static cudaError_t TransformReduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                     Out d_out, N num_items, Op reduction_op,
                                     Transform transform_op, T init, cudaStream_t = 0) {
    return emulated::on_host("cub::DeviceReduce::TransformReduce", d_temp_storage,
                             temp_storage_bytes, [&] {
                               T total = init;
                               emulated::reads(d_in, (long long)num_items);
                               for (long long k = 0; k < (long long)num_items; ++k)
                                 total = reduction_op(total, transform_op(d_in[k]));
                               *d_out = total;
                               return cudaSuccess;
                             });
  }

  // CUDA 13's form: the extremum and its index (an int64_t) to two outputs.
  template <class In, class ExtremumOut, class IndexOut>
  static cudaError_t ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                            ExtremumOut d_max_out, IndexOut d_index_out, int64_t num_items,
                            cudaStream_t = 0) {
    return arg("cub::DeviceReduce::ArgMax", d_temp_storage, temp_storage_bytes, d_in, d_max_out,
               d_index_out, num_items, true, lowest<In>());
  }
  template <class In, class ExtremumOut, class IndexOut>
  static cudaError_t ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                            ExtremumOut d_min_out, IndexOut d_index_out, int64_t num_items,
                            cudaStream_t = 0) {
    return arg("cub::DeviceReduce::ArgMin", d_temp_storage, temp_storage_bytes, d_in, d_min_out,
               d_index_out, num_items, false, highest<In>());
  }
  // The older form: one cub::KeyValuePair<int, T> (index, value) out.
  template <class In, class Out>
  static cudaError_t ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                            int num_items, cudaStream_t = 0) {
    return arg_pair("cub::DeviceReduce::ArgMax", d_temp_storage, temp_storage_bytes, d_in, d_out,
                    num_items, true, lowest<In>());
  }
  template <class In, class Out>
  static cudaError_t ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                            int num_items, cudaStream_t = 0) {
    return arg_pair("cub::DeviceReduce::ArgMin", d_temp_storage, temp_storage_bytes, d_in, d_out,
                    num_items, false, highest<In>());
  }

  // Each run of consecutive equal keys: its first key to d_unique_out, its values combined in
  // order to d_aggregates_out; the number of runs to d_num_runs_out.
  template <class KeysIn, class UniqueOut, class ValuesIn, class AggregatesOut, class NumRunsOut,
            class ReductionOpT, class NumItemsT>
  static cudaError_t ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysIn d_keys_in,
                                 UniqueOut d_unique_out, ValuesIn d_values_in,
                                 AggregatesOut d_aggregates_out, NumRunsOut d_num_runs_out,
                                 ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t = 0) {
    return emulated::on_host(
        "cub::DeviceReduce::ReduceByKey", d_temp_storage, temp_storage_bytes, [&] {
          using Value = emulated::value_of<ValuesIn>;
          const long long n = std::max((long long)num_items, 0LL);
          emulated::reads(d_values_in, n);
          const std::vector<Value> values(d_values_in, d_values_in + n);
          long long count = 0;
          emulated::runs(d_keys_in, n, std::equal_to<>{}, [&](long long first, long long length) {
            Value total = values[size_t(first)];
            for (long long k = first + 1; k < first + length; ++k)
              total = reduction_op(total, values[size_t(k)]);
            d_unique_out[count] = d_keys_in[first];
            d_aggregates_out[count++] = total;
          });
          *d_num_runs_out = count;
          return cudaSuccess;
        });
  }

 private:
  template <class In, class ExtremumOut, class IndexOut, class Value>
  static cudaError_t arg(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                         In d_in, ExtremumOut d_value_out, IndexOut d_index_out, int64_t num_items,
                         bool max, Value empty) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      const auto best = emulated::arg_extremum(d_in, num_items, max, empty);
      *d_value_out = best.value;
      *d_index_out = best.key;
      return cudaSuccess;
    });
  }
  template <class In, class Out, class Value>
  static cudaError_t arg_pair(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                              In d_in, Out d_out, int num_items, bool max, Value empty) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      const auto best = emulated::arg_extremum(d_in, num_items, max, empty);
      using Pair = typename std::iterator_traits<Out>::value_type;
      *d_out = Pair(typename Pair::Key(best.key), typename Pair::Value(best.value));
      return cudaSuccess;
    });
  }
};

}  // namespace cub
