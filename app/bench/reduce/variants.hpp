// The reduction variants as data: which kernel, how its grid follows from n and the block size,
// how to launch it, and how far its float sum may stray from the exact sum. The benchmark and its
// tests go through this table. The kernels are the reduction-performance lesson's, kept once in
// its program (lessons/reduction_performance/reduction_performance.cu) and bound from its kernel
// sections at build time (lessons/CMakeLists.txt), so the benchmark times what the lesson shows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/bench/reduce/accuracy.hpp"
#include "device/launch/executor.hpp"

namespace coop::lessons::reduction_performance {

enum class Family { Seed, Progression, Tuned, Library };
const char* to_string(Family family);

// How a variant's grid follows from n.
enum class GridRule {
  PerElement,  // one thread per `per_thread` elements: grid = ceil(n / (per_thread * block))
  GridStride,  // a fixed grid walks the array: as many blocks as fit on the device at once
};

struct VariantInfo {
  std::string id;     // "seed-atomic": the name the CLI, JSON and lesson steps use
  std::string title;  // "Seed 1: block tree + atomicAdd"
  std::string idea;   // what this step changes, in one line
  Family family = Family::Progression;
  LaunchMode mode = LaunchMode::Normal;
  GridRule grid_rule = GridRule::PerElement;
  uint32_t per_thread = 1;         // elements per thread (PerElement)
  uint32_t min_block = 64;         // smallest block the kernel is written for
  bool power_of_two_block = true;  // the shared-memory trees halve the block each round
};

// The coopviz kernels in teaching order. cub::DeviceReduce::Sum is the reference, not a row here.
const std::vector<VariantInfo>& variants();
const VariantInfo* find_variant(std::string_view id);
// "seed-atomic, seed-group, ..." for messages.
std::string variant_ids();

// Device memory one run of any variant needs.
struct ReduceBuffers {
  DeviceArray<float> input;
  DeviceArray<float> partials;        // one float per block of the largest grid used
  DeviceArray<unsigned> blocks_done;  // the tuned kernel's ticket counter, kept at 0 between runs
  DeviceArray<float> total;
  size_t n = 0;
};
Result<ReduceBuffers> make_buffers(Executor& exec, size_t n, size_t max_grid);

// Checks that the block suits the variant ("tuned needs a multiple of 32 threads: got 48").
Status check_block(const VariantInfo& v, uint32_t block);

// Registers and shared memory of the variant's kernel, as the backend reports them.
KernelResources variant_resources(const VariantInfo& v, Executor& exec);

// The launch for n elements with `block` threads. For grid-stride kernels `grid` blocks if given
// (non-zero), else every block that fits on the device at once (one full wave, from the
// occupancy of a kernel with these resources), but no more than the work needs.
Result<LaunchConfig> variant_config(const VariantInfo& v, const DeviceProps& device,
                                    const KernelResources& resources, uint64_t n, uint32_t block,
                                    uint32_t grid = 0);
// The same with the executor's device and the kernel's resources on it.
Result<LaunchConfig> variant_config(const VariantInfo& v, Executor& exec, uint64_t n,
                                    uint32_t block, uint32_t grid = 0);

// Launches the variant over buffers.input[0..n); zeroes *total first where the kernel adds into it.
Status launch_variant(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                      ReduceBuffers& buffers, Trace& trace);

// Launches once and reads back the sum.
Result<float> run_variant(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                          ReduceBuffers& buffers, Trace& trace);

// [SECTION] Accuracy

// The longest chain of float additions any one element goes through in this variant (tree
// rounds, grid-stride steps, atomics into the total), as reduction_variants.h counts it. Rounding
// error grows with it; cub::DeviceReduce::Sum's is reduction::cub_addition_depth.
uint64_t addition_depth(const VariantInfo& v, uint64_t n, const LaunchConfig& config);
using reduction::cub_addition_depth;

}  // namespace coop::lessons::reduction_performance
