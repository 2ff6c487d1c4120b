// Kernel resources known at build time: the ptxas report parser, the generated table of the lesson
// kernels, and the emulator reading it through Executor::resources().
#include <gtest/gtest.h>

#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/presets.hpp"
#include "device/occupancy/resource_report.hpp"
#include "device/occupancy/sweep.hpp"
#include "lessons/reduction_performance/kernels.hpp"
#include "tests/support.hpp"

namespace coop {
namespace {

constexpr const char* kReport = R"(ptxas info    : 10 bytes gmem
ptxas info    : Compiling entry function '_ZN4coop7lessons1x5spillEPf' for 'sm_90a'
ptxas info    : Function properties for _ZN4coop7lessons1x5spillEPf
    48 bytes stack frame, 40 bytes spill stores, 44 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 8192 bytes smem
ptxas info    : Compile time = 1.0 ms
ptxas info    : Function properties for _ZN4coop7lessons1x6helperEv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z5plainv' for 'sm_75'
ptxas info    : Function properties for _Z5plainv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 4 registers, used 0 barriers, 376 bytes cmem[0]
)";

TEST(PtxasReport, ReadsEveryEntryFunction) {
  const std::vector<PtxasKernelReport> k = parse_ptxas_report(kReport);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].qualified, "coop::lessons::x::spill");
  EXPECT_EQ(k[0].arch, 90);
  EXPECT_EQ(k[0].regs, 32);
  EXPECT_EQ(k[0].static_smem, 8192u);
  EXPECT_EQ(k[0].stack_bytes, 48u);
  EXPECT_EQ(k[0].spill_stores, 40u);
  EXPECT_EQ(k[0].spill_loads, 44u);
  EXPECT_EQ(k[0].barriers, 1);
  EXPECT_EQ(k[1].qualified, "plain");
  EXPECT_EQ(k[1].arch, 75);
  EXPECT_EQ(k[1].regs, 4);
  EXPECT_EQ(k[1].static_smem, 0u);
  EXPECT_EQ(demangled_name("not_mangled"), "not_mangled");
}

TEST(KernelResources, EveryLessonKernelHasARowForEveryPreset) {
  const auto& k = lessons::reduction_performance::kernels();
  for (const DeviceProps& d : device_presets()) {
    const int arch = d.cc_major * 10 + d.cc_minor;
    for (const void* fn : {k.seed_atomic.gpu.function, k.seed_group.gpu.function}) {
      const CompiledKernelResources* row = find_compiled_resources(fn, "", arch);
      ASSERT_NE(row, nullptr) << d.arch_string();
      EXPECT_EQ(row->arch, arch);
      EXPECT_EQ(row->static_smem, 4096u);  // __shared__ float temp[1024]
      EXPECT_GT(row->regs, 8);
      EXPECT_LE(row->regs, 255);
    }
  }
}

TEST(KernelResources, LookupByNameAndNearestArchitecture) {
  const auto& k = lessons::reduction_performance::kernels();
  const CompiledKernelResources* by_stub =
      find_compiled_resources(k.seed_group.gpu.function, "", 90);
  ASSERT_NE(by_stub, nullptr);
  for (const char* name :
       {"seed_group", "reduction_performance::seed_group", "reduction-performance/seed_group",
        "coop::lessons::reduction_performance::seed_group"}) {
    Result<const CompiledKernelResources*> r = find_compiled_resources_by_name(name, 90);
    ASSERT_TRUE(r) << name << ": " << r.message();
    EXPECT_EQ(*r, by_stub) << name;
  }
  // sm_88 is not in the table: the nearest architecture below it answers, and says so.
  const CompiledKernelResources* near =
      find_compiled_resources(k.seed_group.gpu.function, "", 88);
  ASSERT_NE(near, nullptr);
  EXPECT_EQ(near->arch, 87);
  EXPECT_NE(describe_source(*near, 88).find("nearest to sm_88"), std::string::npos);
  Result<const CompiledKernelResources*> missing =
      find_compiled_resources_by_name("reduce_all", 90);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.message().find("seed_atomic"), std::string::npos) << missing.message();
}

TEST(KernelResources, EmulatorReportsTheCompilersNumbers) {
  auto exec = testing::emulator();
  const auto& k = lessons::reduction_performance::kernels();
  const KernelResources r = exec->resources(k.seed_atomic.gpu, k.seed_atomic.name);
  const CompiledKernelResources* row = find_compiled_resources(k.seed_atomic.gpu.function, "", 90);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(r.regs_per_thread, row->regs);
  EXPECT_EQ(r.static_smem, 4096u);
  EXPECT_EQ(r.max_threads_per_block, 1024);
}

TEST(OccupancySweep, SeriesCoverTheAxisAndMarkTheCurrentPoint) {
  const DeviceProps d = *find_preset("9.0");
  OccupancyInput in;
  in.block = {200, 1, 1};
  in.regs_per_thread = 40;
  in.static_smem = 3000;
  SweepSeries s = sweep_occupancy(d, in, SweepAxis::BlockSize);
  ASSERT_GE(s.current_index, 0);
  EXPECT_EQ(s.samples[size_t(s.current_index)].x, 200);  // not a multiple of 32, inserted
  EXPECT_EQ(s.samples.size(), 33u);
  EXPECT_EQ(s.samples.back().x, 1024);
  const OccupancyResult here = *compute_occupancy(d, in);
  EXPECT_EQ(s.samples[size_t(s.current_index)].active_blocks, here.active_blocks_per_sm);

  s = sweep_occupancy(d, in, SweepAxis::Registers);
  EXPECT_EQ(s.samples.size(), 255u);
  EXPECT_EQ(s.samples[size_t(s.current_index)].x, 40);
  for (size_t i = 1; i < s.samples.size(); ++i)  // more registers never raise occupancy
    EXPECT_LE(s.samples[i].occupancy, s.samples[i - 1].occupancy) << s.samples[i].x;

  s = sweep_occupancy(d, in, SweepAxis::SharedMemory);
  EXPECT_EQ(s.samples.front().x, 3000);
  EXPECT_EQ(s.samples.back().x, 232448);
  EXPECT_EQ(s.samples.back().active_blocks, 1);
  EXPECT_EQ(s.samples[size_t(s.current_index)].x, 3000);
}

}  // namespace
}  // namespace coop
