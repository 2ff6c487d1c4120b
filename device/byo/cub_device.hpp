// CUB's device-wide reductions and scans (cub::DeviceReduce, cub::DeviceScan) for a program on
// the emulator. CUB's own launch kernels written for the GPU (PTX, which a host compiler cannot
// read), so here the work is done on the host, in order, when the call is made (the emulator's
// streams run in order), and nothing is traced: the first call of each says so in one line.
// The two-call idiom holds as in CUB: a null d_temp_storage asks for temp_storage_bytes, and a
// second call with storage of that size does the work; storage smaller than asked for is
// cudaErrorInvalidValue, as CUB reports it.
#pragma once

#include <cstddef>
#include <iterator>
#include <limits>

#include "device/byo/cub_block.hpp"

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

// Combines the inputs from `init`, or (`from_first`) from the first input, `init` then being what
// no input gives (CUB's Max and Min of nothing are the type's lowest and highest values).
template <class In, class Out, class Op, class Value>
cudaError_t reduce(const char* call, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                   Out d_out, long long num_items, Op op, Value init, bool from_first = false) {
  bool done = false;
  if (cudaError_t e = temp_storage(call, d_temp_storage, temp_storage_bytes, done); done) return e;
  const bool first = from_first && num_items > 0;
  Value total = first ? Value(d_in[0]) : init;
  for (long long k = first ? 1 : 0; k < num_items; ++k) total = op(total, Value(d_in[k]));
  *d_out = total;
  return cudaSuccess;
}

// An exclusive scan starts from `initial`; an inclusive one (`initial` null) from the first input.
template <class In, class Out, class Op, class Value>
cudaError_t scan(const char* call, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                 Out d_out, long long num_items, Op op, const Value* initial) {
  bool done = false;
  if (cudaError_t e = temp_storage(call, d_temp_storage, temp_storage_bytes, done); done) return e;
  if (num_items <= 0) return cudaSuccess;
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
}

template <class In>
using value_of = typename std::iterator_traits<In>::value_type;

}  // namespace cub::emulated

namespace cub {

struct DeviceReduce {
 private:
  template <class In>
  static emulated::value_of<In> lowest() { return std::numeric_limits<emulated::value_of<In>>::lowest(); }
  template <class In>
  static emulated::value_of<In> highest() { return std::numeric_limits<emulated::value_of<In>>::max(); }

 public:
  template <class In, class Out, class N>
  static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         N num_items, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Sum", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, cub::Sum{}, emulated::value_of<In>{});
  }
  template <class In, class Out, class N>
  static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         N num_items, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Max", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, cub::Max{}, lowest<In>(), true);
  }
  template <class In, class Out, class N>
  static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         N num_items, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Min", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, cub::Min{}, highest<In>(), true);
  }
  template <class In, class Out, class N, class Op, class T>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                            N num_items, Op op, T init, cudaStream_t = 0) {
    return emulated::reduce("cub::DeviceReduce::Reduce", d_temp_storage, temp_storage_bytes, d_in,
                            d_out, num_items, op, init);
  }
};

struct DeviceScan {
  template <class In, class Out, class N>
  static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                  Out d_out, N num_items, cudaStream_t = 0) {
    const emulated::value_of<In> zero{};
    return emulated::scan("cub::DeviceScan::ExclusiveSum", d_temp_storage, temp_storage_bytes,
                          d_in, d_out, num_items, cub::Sum{}, &zero);
  }
  template <class In, class Out, class N>
  static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                  Out d_out, N num_items, cudaStream_t = 0) {
    return emulated::scan("cub::DeviceScan::InclusiveSum", d_temp_storage, temp_storage_bytes,
                          d_in, d_out, num_items, cub::Sum{},
                          static_cast<const emulated::value_of<In>*>(nullptr));
  }
  template <class In, class Out, class Op, class T, class N>
  static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                   Out d_out, Op op, T init, N num_items, cudaStream_t = 0) {
    return emulated::scan("cub::DeviceScan::ExclusiveScan", d_temp_storage, temp_storage_bytes,
                          d_in, d_out, num_items, op, &init);
  }
  template <class In, class Out, class Op, class N>
  static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                   Out d_out, Op op, N num_items, cudaStream_t = 0) {
    return emulated::scan("cub::DeviceScan::InclusiveScan", d_temp_storage, temp_storage_bytes,
                          d_in, d_out, num_items, op,
                          static_cast<const emulated::value_of<In>*>(nullptr));
  }
};

}  // namespace cub
