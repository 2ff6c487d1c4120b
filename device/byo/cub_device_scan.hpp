// CUB's device-wide scans (cub::DeviceScan: whole, in place, and by key) and segmented
// reductions (cub::DeviceSegmentedReduce) for a program on the emulator, run on the host when
// called as cub_device.hpp says. A scan by key restarts at each run of equal consecutive keys
// (equality_op of a key and the one before it); a segment [d_begin_offsets[s], d_end_offsets[s])
// that is empty reduces to the initial value, as CUB documents.
#pragma once

#include <functional>

#include "device/byo/cub_device.hpp"

namespace cub::emulated {

// A scan restarted at each run of keys; `initial` as in scan().
template <class Keys, class In, class Out, class Op, class Value, class Equal>
cudaError_t scan_by_key(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                        Keys d_keys, In d_in, Out d_out, long long num_items, Op op,
                        const Value* initial, Equal equal) {
  return on_host(call, d_temp_storage, temp_storage_bytes, [&] {
    reads(d_keys, num_items);
    reads(d_in, num_items);
    Value running{};
    for (long long k = 0; k < num_items; ++k) {
      const bool starts = k == 0 || !equal(d_keys[k - 1], d_keys[k]);
      const Value input = Value(d_in[k]);  // read first: the scan may be in place
      if (initial) {
        if (starts) running = *initial;
        d_out[k] = running;
        running = op(running, input);
      } else {
        running = starts ? input : op(running, input);
        d_out[k] = running;
      }
    }
    return cudaSuccess;
  });
}

template <class In, class Out, class Begin, class End, class Op, class T>
cudaError_t segmented_reduce(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                             In d_in, Out d_out, long long num_segments, Begin d_begin_offsets,
                             End d_end_offsets, Op op, T init) {
  return on_host(call, d_temp_storage, temp_storage_bytes, [&] {
    reads(d_begin_offsets, num_segments);
    reads(d_end_offsets, num_segments);
    for (long long s = 0; s < num_segments; ++s) {
      T total = init;
      reads(d_in + d_begin_offsets[s], (long long)d_end_offsets[s] - (long long)d_begin_offsets[s]);
      for (long long k = d_begin_offsets[s]; k < (long long)d_end_offsets[s]; ++k)
        total = op(total, T(d_in[k]));
      d_out[s] = total;
    }
    return cudaSuccess;
  });
}

}  // namespace cub::emulated

namespace cub {

struct DeviceScan {
  template <class In, class Out, class N>
  static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                  Out d_out, N num_items, cudaStream_t = 0) {
    const emulated::value_of<In> zero{};
    return emulated::scan("cub::DeviceScan::ExclusiveSum", d_temp_storage, temp_storage_bytes, d_in,
                          d_out, num_items, ::coop::cuda::std::plus<>{}, &zero);
  }
  template <class Data, class N>
  static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                                  N num_items, cudaStream_t stream = 0) {
    return ExclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }
  template <class In, class Out, class N>
  static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                  Out d_out, N num_items, cudaStream_t = 0) {
    return emulated::scan("cub::DeviceScan::InclusiveSum", d_temp_storage, temp_storage_bytes, d_in,
                          d_out, num_items, ::coop::cuda::std::plus<>{},
                          static_cast<const emulated::value_of<In>*>(nullptr));
  }
  template <class Data, class N>
  static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                                  N num_items, cudaStream_t stream = 0) {
    return InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }
  template <class In, class Out, class Op, class T, class N>
  static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                   Out d_out, Op op, T init, N num_items, cudaStream_t = 0) {
    return emulated::scan("cub::DeviceScan::ExclusiveScan", d_temp_storage, temp_storage_bytes,
                          d_in, d_out, num_items, op, &init);
  }
  template <class Data, class Op, class T, class N>
  static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                                   Op op, T init, N num_items, cudaStream_t stream = 0) {
    return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, op, init, num_items,
                         stream);
  }
  template <class In, class Out, class Op, class N>
  static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                   Out d_out, Op op, N num_items, cudaStream_t = 0) {
    return emulated::scan("cub::DeviceScan::InclusiveScan", d_temp_storage, temp_storage_bytes,
                          d_in, d_out, num_items, op,
                          static_cast<const emulated::value_of<In>*>(nullptr));
  }
  template <class Data, class Op, class N>
  static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data,
                                   Op op, N num_items, cudaStream_t stream = 0) {
    return InclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, op, num_items, stream);
  }
  // An inclusive scan whose first output is init combined with the first input.
  template <class In, class Out, class Op, class T, class N>
  static cudaError_t InclusiveScanInit(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                       Out d_out, Op op, T init, N num_items, cudaStream_t = 0) {
    return emulated::on_host("cub::DeviceScan::InclusiveScanInit", d_temp_storage,
                             temp_storage_bytes, [&] {
                               T running = init;
                               emulated::reads(d_in, (long long)num_items);
                               for (long long k = 0; k < (long long)num_items; ++k)
                                 d_out[k] = running = op(running, d_in[k]);
                               return cudaSuccess;
                             });
  }

  template <class Keys, class In, class Out, class Equal = std::equal_to<>, class N = uint32_t>
  static cudaError_t ExclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                       Keys d_keys_in, In d_values_in, Out d_values_out,
                                       N num_items, Equal equality_op = Equal(), cudaStream_t = 0) {
    const emulated::value_of<In> zero{};
    return emulated::scan_by_key("cub::DeviceScan::ExclusiveSumByKey", d_temp_storage,
                                 temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                 num_items, ::coop::cuda::std::plus<>{}, &zero, equality_op);
  }
  template <class Keys, class In, class Out, class Op, class T, class Equal = std::equal_to<>,
            class N = uint32_t>
  static cudaError_t ExclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                        Keys d_keys_in, In d_values_in, Out d_values_out, Op op,
                                        T init, N num_items, Equal equality_op = Equal(),
                                        cudaStream_t = 0) {
    return emulated::scan_by_key("cub::DeviceScan::ExclusiveScanByKey", d_temp_storage,
                                 temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                 num_items, op, &init, equality_op);
  }
  template <class Keys, class In, class Out, class Equal = std::equal_to<>, class N = uint32_t>
  static cudaError_t InclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                       Keys d_keys_in, In d_values_in, Out d_values_out,
                                       N num_items, Equal equality_op = Equal(), cudaStream_t = 0) {
    return emulated::scan_by_key("cub::DeviceScan::InclusiveSumByKey", d_temp_storage,
                                 temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                 num_items, ::coop::cuda::std::plus<>{},
                                 static_cast<const emulated::value_of<In>*>(nullptr), equality_op);
  }
  template <class Keys, class In, class Out, class Op, class Equal = std::equal_to<>,
            class N = uint32_t>
  static cudaError_t InclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                        Keys d_keys_in, In d_values_in, Out d_values_out, Op op,
                                        N num_items, Equal equality_op = Equal(),
                                        cudaStream_t = 0) {
    return emulated::scan_by_key("cub::DeviceScan::InclusiveScanByKey", d_temp_storage,
                                 temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                 num_items, op, static_cast<const emulated::value_of<In>*>(nullptr),
                                 equality_op);
  }
};

struct DeviceSegmentedReduce {
  template <class In, class Out, class Begin, class End, class Op, class T>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                            int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                            Op reduction_op, T initial_value, cudaStream_t = 0) {
    return emulated::segmented_reduce("cub::DeviceSegmentedReduce::Reduce", d_temp_storage,
                                      temp_storage_bytes, d_in, d_out, num_segments,
                                      d_begin_offsets, d_end_offsets, reduction_op, initial_value);
  }
  template <class In, class Out, class Begin, class End>
  static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                         cudaStream_t = 0) {
    return emulated::segmented_reduce("cub::DeviceSegmentedReduce::Sum", d_temp_storage,
                                      temp_storage_bytes, d_in, d_out, num_segments,
                                      d_begin_offsets, d_end_offsets, ::coop::cuda::std::plus<>{},
                                      emulated::value_of<In>{});
  }
  template <class In, class Out, class Begin, class End>
  static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                         cudaStream_t = 0) {
    return emulated::segmented_reduce("cub::DeviceSegmentedReduce::Min", d_temp_storage,
                                      temp_storage_bytes, d_in, d_out, num_segments,
                                      d_begin_offsets, d_end_offsets, ::coop::cuda::minimum<>{},
                                      std::numeric_limits<emulated::value_of<In>>::max());
  }
  template <class In, class Out, class Begin, class End>
  static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                         int64_t num_segments, Begin d_begin_offsets, End d_end_offsets,
                         cudaStream_t = 0) {
    return emulated::segmented_reduce("cub::DeviceSegmentedReduce::Max", d_temp_storage,
                                      temp_storage_bytes, d_in, d_out, num_segments,
                                      d_begin_offsets, d_end_offsets, ::coop::cuda::maximum<>{},
                                      std::numeric_limits<emulated::value_of<In>>::lowest());
  }
};

}  // namespace cub
