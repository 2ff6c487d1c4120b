// What only a real GPU can measure, outside the lesson kernels: cub::DeviceReduce::Sum (the
// reference every variant is compared with) and a device-to-device copy (the bandwidth ceiling).
// All run on the current CUDA device (the GPU executor selects it); without one they return the
// CUDA error as a Status.
#pragma once

#include <cstddef>
#include <vector>

#include "device/launch/result.hpp"

namespace coop::lessons::reduction_performance {

// How to time: `warmup` untimed calls, then `runs` timed batches of `repeat` calls each, between
// two cudaEvents on one stream. Each entry of the result is the time of one call in milliseconds.
struct GpuTimingPlan {
  unsigned warmup = 3;
  unsigned runs = 9;
  unsigned repeat = 10;
};

// The sum of d_input[0..n) by cub::DeviceReduce::Sum.
Result<float> cub_sum(const float* d_input, size_t n);

// Times cub::DeviceReduce::Sum over d_input[0..n) (temporary storage allocated beforehand).
Result<std::vector<double>> time_cub_sum(const float* d_input, size_t n, const GpuTimingPlan& plan);

// Times cudaMemcpyAsync(d_dst, d_src, bytes, cudaMemcpyDeviceToDevice).
Result<std::vector<double>> time_device_copy(void* d_dst, const void* d_src, size_t bytes,
                                             const GpuTimingPlan& plan);

}  // namespace coop::lessons::reduction_performance
