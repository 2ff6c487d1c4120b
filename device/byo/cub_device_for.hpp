// CUB's device-wide element-by-element calls (cub::DeviceFor, cub::DeviceAdjacentDifference,
// cub::DeviceTransform, cub::DeviceCopy and cub::DeviceMemcpy's batches) for a
// program on the emulator, run on the host when called as cub_device.hpp says: the program's
// operator is called for each item in order. DeviceFor's forms with a d_temp_storage argument
// answer a null one with its size (a byte, as CUB's do); the others take none. An adjacent
// difference computes difference_op(item, the item before it) (SubtractLeft; the first item is
// copied) or difference_op(item, the item after it) (SubtractRight; the last is copied), from the
// input as it was: the in-place forms read it whole first.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <tuple>
#include <type_traits>
#include <vector>

#include "device/byo/cub_device.hpp"
#include "device/emu/memory_record.hpp"

namespace cub::emulated {

// The size query, or the work given storage (of any size: the forms that take it use none).
template <class Work>
cudaError_t sized(void* d_temp_storage, size_t& temp_storage_bytes, Work work) {
  if (!d_temp_storage) {
    temp_storage_bytes = kTempStorageBytes;
    return cudaSuccess;
  }
  return work();
}

}  // namespace cub::emulated

namespace cub {

struct DeviceFor {
  template <class ShapeT, class OpT>
  static cudaError_t Bulk(ShapeT shape, OpT op, cudaStream_t = 0) {
    static_assert(std::is_integral_v<ShapeT>, "ShapeT must be an integral type");
    ::coop::byo::library_on_host("cub::DeviceFor::Bulk");
    for (ShapeT i = 0; i < shape; ++i) op(i);
    return cudaSuccess;
  }
  template <class ShapeT, class OpT>
  static cudaError_t Bulk(void* d_temp_storage, size_t& temp_storage_bytes, ShapeT shape, OpT op,
                          cudaStream_t stream = 0) {
    return emulated::sized(d_temp_storage, temp_storage_bytes,
                           [&] { return Bulk(shape, op, stream); });
  }
  template <class It, class NumItemsT, class OpT>
  static cudaError_t ForEachN(It first, NumItemsT num_items, OpT op, cudaStream_t = 0) {
    ::coop::byo::library_on_host("cub::DeviceFor::ForEachN");
    for (NumItemsT i = 0; i < num_items; ++i) op(first[i]);
    return cudaSuccess;
  }
  template <class It, class NumItemsT, class OpT>
  static cudaError_t ForEachN(void* d_temp_storage, size_t& temp_storage_bytes, It first,
                              NumItemsT num_items, OpT op, cudaStream_t stream = 0) {
    return emulated::sized(d_temp_storage, temp_storage_bytes,
                           [&] { return ForEachN(first, num_items, op, stream); });
  }
  template <class It, class OpT>
  static cudaError_t ForEach(It first, It last, OpT op, cudaStream_t = 0) {
    ::coop::byo::library_on_host("cub::DeviceFor::ForEach");
    for (It at = first; at != last; ++at) op(*at);
    return cudaSuccess;
  }
  template <class It, class OpT>
  static cudaError_t ForEach(void* d_temp_storage, size_t& temp_storage_bytes, It first, It last,
                             OpT op, cudaStream_t stream = 0) {
    return emulated::sized(d_temp_storage, temp_storage_bytes,
                           [&] { return ForEach(first, last, op, stream); });
  }
  // The Copy forms hand the operator a copy of each item.
  template <class It, class NumItemsT, class OpT>
  static cudaError_t ForEachCopyN(It first, NumItemsT num_items, OpT op, cudaStream_t = 0) {
    ::coop::byo::library_on_host("cub::DeviceFor::ForEachCopyN");
    emulated::check_read(first, (long long)num_items, "cub::DeviceFor::ForEachCopyN");
    for (NumItemsT i = 0; i < num_items; ++i) op(emulated::value_of<It>(first[i]));
    return cudaSuccess;
  }
  template <class It, class NumItemsT, class OpT>
  static cudaError_t ForEachCopyN(void* d_temp_storage, size_t& temp_storage_bytes, It first,
                                  NumItemsT num_items, OpT op, cudaStream_t stream = 0) {
    return emulated::sized(d_temp_storage, temp_storage_bytes,
                           [&] { return ForEachCopyN(first, num_items, op, stream); });
  }
  template <class It, class OpT>
  static cudaError_t ForEachCopy(It first, It last, OpT op, cudaStream_t = 0) {
    ::coop::byo::library_on_host("cub::DeviceFor::ForEachCopy");
    if constexpr (requires { last - first; })
      emulated::check_read(first, (long long)(last - first), "cub::DeviceFor::ForEachCopy");
    for (It at = first; at != last; ++at) op(emulated::value_of<It>(*at));
    return cudaSuccess;
  }
  template <class It, class OpT>
  static cudaError_t ForEachCopy(void* d_temp_storage, size_t& temp_storage_bytes, It first,
                                 It last, OpT op, cudaStream_t stream = 0) {
    return emulated::sized(d_temp_storage, temp_storage_bytes,
                           [&] { return ForEachCopy(first, last, op, stream); });
  }
};

struct DeviceAdjacentDifference {
  template <class In, class Out, class DifferenceOpT = std::minus<>, class NumItemsT = uint32_t>
  static cudaError_t SubtractLeftCopy(void* d_temp_storage, size_t& temp_storage_bytes, In d_input,
                                      Out d_output, NumItemsT num_items,
                                      DifferenceOpT difference_op = {}, cudaStream_t = 0) {
    return differences("cub::DeviceAdjacentDifference::SubtractLeftCopy", d_temp_storage,
                       temp_storage_bytes, d_input, d_output, num_items, difference_op, -1);
  }
  template <class It, class DifferenceOpT = std::minus<>, class NumItemsT = uint32_t>
  static cudaError_t SubtractLeft(void* d_temp_storage, size_t& temp_storage_bytes, It d_input,
                                  NumItemsT num_items, DifferenceOpT difference_op = {},
                                  cudaStream_t = 0) {
    return differences("cub::DeviceAdjacentDifference::SubtractLeft", d_temp_storage,
                       temp_storage_bytes, d_input, d_input, num_items, difference_op, -1);
  }
  template <class In, class Out, class DifferenceOpT = std::minus<>, class NumItemsT = uint32_t>
  static cudaError_t SubtractRightCopy(void* d_temp_storage, size_t& temp_storage_bytes, In d_input,
                                       Out d_output, NumItemsT num_items,
                                       DifferenceOpT difference_op = {}, cudaStream_t = 0) {
    return differences("cub::DeviceAdjacentDifference::SubtractRightCopy", d_temp_storage,
                       temp_storage_bytes, d_input, d_output, num_items, difference_op, 1);
  }
  template <class It, class DifferenceOpT = std::minus<>, class NumItemsT = uint32_t>
  static cudaError_t SubtractRight(void* d_temp_storage, size_t& temp_storage_bytes, It d_input,
                                   NumItemsT num_items, DifferenceOpT difference_op = {},
                                   cudaStream_t = 0) {
    return differences("cub::DeviceAdjacentDifference::SubtractRight", d_temp_storage,
                       temp_storage_bytes, d_input, d_input, num_items, difference_op, 1);
  }

 private:
  // Each item against its neighbour `side` (-1 before, 1 after) places away.
  template <class In, class Out, class DifferenceOpT>
  static cudaError_t differences(const char* call, void* d_temp_storage, size_t& temp_storage_bytes,
                                 In d_input, Out d_output, long long num_items, DifferenceOpT& op,
                                 int side) {
    return emulated::on_host(call, d_temp_storage, temp_storage_bytes, [&] {
      const std::vector<emulated::value_of<In>> items(d_input, d_input + std::max(num_items, 0LL));
      for (long long k = 0; k < num_items; ++k) {
        const long long other = k + side;
        if (other < 0 || other >= num_items)
          d_output[k] = items[size_t(k)];
        else
          d_output[k] = op(items[size_t(k)], items[size_t(other)]);
      }
      return cudaSuccess;
    });
  }
};

// output[i] = transform_op(the i-th item of each input), the inputs a tuple of iterators (or one
// iterator). The forms with a d_temp_storage argument answer a null one with its size, as CUB's.
struct DeviceTransform {
  template <class... Ins, class Out, class NumItemsT, class TransformOp>
  static cudaError_t Transform(::std::tuple<Ins...> inputs, Out output, NumItemsT num_items,
                               TransformOp transform_op, cudaStream_t = 0) {
    ::coop::byo::library_on_host("cub::DeviceTransform::Transform");
    ::std::apply(
        [&](auto&... in) {
          (emulated::check_read(in, (long long)num_items, "cub::DeviceTransform::Transform"), ...);
        },
        inputs);
    for (NumItemsT i = 0; i < num_items; ++i)
      output[i] = ::std::apply([&](auto&... in) { return transform_op(in[i]...); }, inputs);
    return cudaSuccess;
  }
  template <class In, class Out, class NumItemsT, class TransformOp>
  static cudaError_t Transform(In input, Out output, NumItemsT num_items, TransformOp transform_op,
                               cudaStream_t stream = 0) {
    return Transform(::std::make_tuple(input), output, num_items, transform_op, stream);
  }
  template <class... Ins, class Out, class NumItemsT, class TransformOp>
  static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes,
                               ::std::tuple<Ins...> inputs, Out output, NumItemsT num_items,
                               TransformOp transform_op, cudaStream_t stream = 0) {
    return emulated::sized(d_temp_storage, temp_storage_bytes, [&] {
      return Transform(inputs, output, num_items, transform_op, stream);
    });
  }
  template <class In, class Out, class NumItemsT, class TransformOp>
  static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes, In input,
                               Out output, NumItemsT num_items, TransformOp transform_op,
                               cudaStream_t stream = 0) {
    return Transform(d_temp_storage, temp_storage_bytes, ::std::make_tuple(input), output,
                     num_items, transform_op, stream);
  }
  // The same, the operator given each input item where it lies (CUB's kernels then load no copy).
  template <class... Ins, class Out, class NumItemsT, class TransformOp>
  static cudaError_t TransformStableArgumentAddresses(::std::tuple<Ins...> inputs, Out output,
                                                      NumItemsT num_items, TransformOp transform_op,
                                                      cudaStream_t stream = 0) {
    return Transform(inputs, output, num_items, transform_op, stream);
  }
  template <class In, class Out, class NumItemsT, class TransformOp>
  static cudaError_t TransformStableArgumentAddresses(In input, Out output, NumItemsT num_items,
                                                      TransformOp transform_op,
                                                      cudaStream_t stream = 0) {
    return Transform(::std::make_tuple(input), output, num_items, transform_op, stream);
  }
};

// Ranges copied item by item (DeviceCopy::Batched: range i is sizes[i] items of input_it[i],
// itself an iterator, to output_it[i]) or byte by byte (DeviceMemcpy::Batched: buffer i is
// buffer_sizes[i] bytes). With the two-call idiom; ranges that overlap an output are undefined,
// as in CUB.
struct DeviceCopy {
  template <class InputIt, class OutputIt, class SizeIteratorT>
  static cudaError_t Batched(void* d_temp_storage, size_t& temp_storage_bytes, InputIt input_it,
                             OutputIt output_it, SizeIteratorT sizes, int64_t num_ranges,
                             cudaStream_t = 0) {
    return emulated::on_host("cub::DeviceCopy::Batched", d_temp_storage, temp_storage_bytes, [&] {
      emulated::reads(input_it, num_ranges);
      emulated::reads(output_it, num_ranges);
      emulated::reads(sizes, num_ranges);
      for (int64_t r = 0; r < num_ranges; ++r) {
        auto in = input_it[r];
        auto out = output_it[r];
        const long long n = (long long)sizes[r];
        emulated::reads(in, n);
        for (long long k = 0; k < n; ++k) out[k] = in[k];
      }
      return cudaSuccess;
    });
  }
};

struct DeviceMemcpy {
  template <class InputBufferIt, class OutputBufferIt, class BufferSizeIteratorT>
  static cudaError_t Batched(void* d_temp_storage, size_t& temp_storage_bytes,
                             InputBufferIt input_buffer_it, OutputBufferIt output_buffer_it,
                             BufferSizeIteratorT buffer_sizes, int64_t num_buffers,
                             cudaStream_t = 0) {
    static_assert(std::is_pointer_v<emulated::value_of<InputBufferIt>>,
                  "DeviceMemcpy::Batched only supports copying of memory buffers. Please consider "
                  "using DeviceCopy::Batched instead.");
    return emulated::on_host("cub::DeviceMemcpy::Batched", d_temp_storage, temp_storage_bytes, [&] {
      emulated::reads(input_buffer_it, num_buffers);
      emulated::reads(output_buffer_it, num_buffers);
      emulated::reads(buffer_sizes, num_buffers);
      for (int64_t b = 0; b < num_buffers; ++b) {
        const void* in = input_buffer_it[b];
        void* out = output_buffer_it[b];
        const size_t bytes = size_t(buffer_sizes[b]);
        std::memcpy(out, in, bytes);
        ::coop::emu::host_copied(out, in, bytes);  // what was never written stays so
      }
      return cudaSuccess;
    });
  }
};

}  // namespace cub
