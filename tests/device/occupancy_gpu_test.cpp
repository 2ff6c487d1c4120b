// gpu: the occupancy model against the CUDA runtime, for every lesson kernel: active blocks per SM
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) over block sizes 32..1024 and several dynamic
// shared memory sizes, the suggested block size (cudaOccupancyMaxPotentialBlockSize), and the
// build-time resource table against cudaFuncGetAttributes of the loaded binary.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "device/gpu/device_query.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/occupancy.hpp"
#include "lessons/reduction_performance/kernels.hpp"
#include "tests/support.hpp"

namespace coop {
namespace {

struct LessonKernel {
  const char* name;
  const void* function;
};

std::vector<LessonKernel> lesson_kernels() {
  const auto& rp = lessons::reduction_performance::kernels();
  return {
      {rp.seed_atomic.name, rp.seed_atomic.gpu.function},
      {rp.seed_group.name, rp.seed_group.gpu.function},
  };
}

// Lets the kernel launch with `dynamic` bytes (above 48 KB needs the opt-in attribute).
bool allow_dynamic(const void* fn, const cudaFuncAttributes& a, size_t dynamic) {
  const int want = int(std::max<size_t>(dynamic, size_t(a.maxDynamicSharedSizeBytes)));
  return cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, want) == cudaSuccess;
}

TEST(OccupancyGpu, AgreesWithTheRuntimeForEveryLessonKernel) {
  COOP_GPU_OR_SKIP(gpu);
  const DeviceProps& d = gpu->device();
  const size_t smem_limit = max_smem_per_block(d);
  int agree = 0, total = 0, potential_agree = 0, potential_total = 0;
  for (const LessonKernel& k : lesson_kernels()) {
    cudaFuncAttributes a{};
    ASSERT_EQ(cudaFuncGetAttributes(&a, k.function), cudaSuccess) << k.name;
    const std::vector<size_t> dynamic_sizes = {0,
                                               1024,
                                               8 * 1024,
                                               32 * 1024,
                                               48 * 1024 - a.sharedSizeBytes,
                                               100 * 1024,
                                               smem_limit - a.sharedSizeBytes};
    for (size_t dynamic : dynamic_sizes) {
      if (a.sharedSizeBytes + dynamic > smem_limit) continue;
      ASSERT_TRUE(allow_dynamic(k.function, a, dynamic)) << k.name << " " << dynamic;
      for (int block = 32; block <= 1024; block += 32) {
        if (block > a.maxThreadsPerBlock) continue;
        int runtime = -1;
        ASSERT_EQ(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtime, k.function, block, dynamic),
            cudaSuccess);
        OccupancyInput in;
        in.block = {uint32_t(block), 1, 1};
        in.regs_per_thread = a.numRegs;
        in.static_smem = a.sharedSizeBytes;
        in.dynamic_smem = dynamic;
        Result<OccupancyResult> model = compute_occupancy(d, in);
        ++total;
        const int ours = model ? model->active_blocks_per_sm : -1;
        if (ours == runtime) ++agree;
        EXPECT_EQ(ours, runtime) << k.name << " block " << block << " dynamic " << dynamic
                                 << " regs " << a.numRegs << " static " << a.sharedSizeBytes;
      }
      int min_grid = 0, best_block = 0;
      ASSERT_EQ(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, k.function, dynamic, 0),
                cudaSuccess);
      Result<PotentialBlockSize> p =
          max_potential_block_size(d, a.numRegs, a.sharedSizeBytes, dynamic, a.maxThreadsPerBlock);
      ++potential_total;
      const bool same = p && p->block_size == best_block && p->min_grid_size == min_grid;
      potential_agree += same;
      EXPECT_TRUE(same) << k.name << " dynamic " << dynamic << ": runtime " << best_block << "/"
                        << min_grid << ", model " << (p ? p->block_size : -1) << "/"
                        << (p ? p->min_grid_size : -1);
    }
  }
  std::printf("occupancy agreement: %d of %d (cudaOccupancyMaxActiveBlocksPerMultiprocessor, %s)\n",
              agree, total, d.name.c_str());
  std::printf("potential block size agreement: %d of %d (cudaOccupancyMaxPotentialBlockSize)\n",
              potential_agree, potential_total);
  EXPECT_GT(total, 5 * 32);
}

TEST(KernelResourcesGpu, BuildTableMatchesTheLoadedBinary) {
  COOP_GPU_OR_SKIP(gpu);
  const DeviceProps& d = gpu->device();
  const int arch = d.cc_major * 10 + d.cc_minor;
  int agree = 0, total = 0;
  for (const LessonKernel& k : lesson_kernels()) {
    cudaFuncAttributes a{};
    ASSERT_EQ(cudaFuncGetAttributes(&a, k.function), cudaSuccess) << k.name;
    const CompiledKernelResources* row = find_compiled_resources(k.function, k.name, arch);
    ASSERT_NE(row, nullptr) << k.name;
    ++total;
    const bool same = row->regs == a.numRegs && row->static_smem == a.sharedSizeBytes;
    agree += same;
    EXPECT_EQ(row->static_smem, a.sharedSizeBytes) << k.name;
    EXPECT_EQ(row->regs, a.numRegs) << k.name << " (" << describe_source(*row, arch)
                                    << "; binary version " << a.binaryVersion << ")";
    // The executor's view of the same kernel, as the emulator would compute it.
    const KernelResources emu = to_kernel_resources(*row, d);
    EXPECT_EQ(emu.max_threads_per_block, a.maxThreadsPerBlock) << k.name;
  }
  std::printf("resource table agreement: %d of %d kernels (sm_%d)\n", agree, total, arch);
}

}  // namespace
}  // namespace coop
