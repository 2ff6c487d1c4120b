// The runtime surface of user programs beyond plain launches. Programs that time themselves or
// wait on the clock (tests/programs/clock_blocks.cu, spin_delay.cu) run on the emulator in
// modelled time and pass their own checks; a program stopped at its time limit is told apart by
// whether its threads were still making progress or none had moved. CUDA Graphs built node by
// node and captured from streams (every kernel node traced as a launch), stream-ordered
// allocation with memory pools, and every error code's name and words. All build with nvcc and,
// where there is a GPU, pass on the GPU backend.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/program/program.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::coopviz;
using coop::testing::program;

// Five kernels that each wait 10 ms of GPU time on clock(), clock64() or __nanosleep take well
// under a second of the program's own wall clock on the emulator.
TEST(ModelledTimePrograms, WaitsOf10MsOfGpuTimeTakeWellUnderASecond) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("spin_delay.cu"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const size_t at = r.out.find(" s of wall time");
  ASSERT_NE(at, std::string::npos) << r.out;
  const double wall = std::stod(r.out.substr(r.out.rfind(' ', at - 1) + 1));
  EXPECT_LT(wall, 1.0) << r.out;
  EXPECT_NE(r.out.find("waited 10."), std::string::npos) << r.out;
}

// A thread looping on a load nobody changes never reaches a step point: named, with its line.
TEST(ProgramTimeouts, NoThreadMovedNamesTheThreadAndItsLine) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/endless_loop.cu") + " --timeout 3");
  EXPECT_EQ(r.exit_code, 128 + 9);
  EXPECT_NE(r.err.find("ran longer than 3 s and was stopped in kernel spin: no thread moved for"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("thread (0,0,0) of block (0,0,0) runs at line 3 "), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("still making progress"), std::string::npos) << r.err;
}

// A kernel's failed assert() stops its launch with cudaErrorAssert and CUDA's message naming the
// block and thread, where the C library's assert would abort the whole program.
TEST(DeviceAssert, AFailedAssertInAKernelIsCudaErrorAssertAndTheProgramGoesOn) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("device_assert.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("held: cudaSuccess, failed: cudaErrorAssert: PASSED"), std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.err.find("device_assert.cu:9: void check_below(int): block: [1,0,0], thread: ["),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Assertion `i < n` failed."), std::string::npos) << r.err;
}

// cudaMallocManaged memory reads as zeros until written, as a GPU's fresh managed pages do: a
// flag a kernel only sets stays false (the emulator's cudaMalloc memory is 0xa5 garbage instead).
TEST(ManagedMemory, StartsAsZerosOnTheEmulator) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("managed_starts_zero.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("found 0, 0 of 64 untouched counts not zero: PASSED"), std::string::npos)
      << r.out << r.err;
}

TEST(ManagedMemory, StartsAsZerosOnTheGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const coop::testing::Ran r = coopviz("run --backend gpu " + program("managed_starts_zero.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
}

// The deprecated bank-size calls answer as an H200 does under CUDA 13 (the same line, measured):
// four-byte banks whatever is set, a made-up setting refused. They once failed as unsupported.
TEST(SharedMemoryBanks, AreFourBytesWideAndValidSettingsSucceed) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("bank_mode.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("banks 4 bytes (4 after asking for 8), set cudaSuccess, per kernel "
                       "cudaSuccess, made-up cudaErrorInvalidValue, 0 of 1024 transposed wrong: "
                       "PASSED"),
            std::string::npos)
      << r.out << r.err;
}

// The graph-memory programs' lines on `backend` ("emu", or "gpu" where there is one).
void expect_lines(const std::string& backend, const std::string& file,
                  std::initializer_list<const char*> lines) {
  if (backend == "gpu") {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  }
  const coop::testing::Ran r =
      coopviz("run --backend " + backend + " --trace-launches all " + program(file));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* line : lines)
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out << r.err;
}

class GraphMemory : public ::testing::TestWithParam<std::string> {};

// A graph's allocation freed outside the graph (cudaFree, cudaFreeAsync, another graph's free
// node) is the graph's again at its next launch, at the same address: each launch fills it, each
// free succeeds (the emulator once released it, and the next free failed as unknown memory; on
// the GPU, CUDA's own cudaFree released it).
TEST_P(GraphMemory, FreedOutsideTheGraphIsTheGraphsAgainAtItsNextLaunch) {
  expect_lines(GetParam(), "graph_memory_freed_outside.cu",
               {"launch 0: filled 1, freed: cudaSuccess, cudaSuccess",
                "launch 1: filled 1, freed: cudaSuccess, cudaSuccess",
                "launch 2: filled 1, freed: cudaSuccess, cudaSuccess",
                "alloc node after another graph's node: cudaErrorInvalidValue", "PASSED"});
}

// cudaMallocAsync and cudaFreeAsync in a capture are alloc and free nodes: the graph has seven
// nodes, and both launches (kernels traced, so every access is checked) square every value.
TEST_P(GraphMemory, CapturedStreamOrderedAllocationIsTheGraphsAtEachLaunch) {
  expect_lines(GetParam(), "captured_allocation.cu",
               {"7 nodes: 2 alloc, 2 free", "launch 0: cudaSuccess, squares right",
                "launch 1: cudaSuccess, squares right", "PASSED"});
}

// Named so that the GPU's case carries the gpu label (tests/CMakeLists.txt).
INSTANTIATE_TEST_SUITE_P(Backends, GraphMemory, ::testing::Values("emu", "gpu"),
                         [](const auto& info) { return info.param == "gpu" ? "Gpu" : "Emulator"; });

// --timeout above the executor's 60 s bound on one launch raises that bound with it; below, the
// program's own limit stops it first and the executor keeps its own.
TEST(ProgramTimeouts, ALongerTimeoutGivesEachLaunchAsLong) {
  const coop::testing::Ran longer =
      coopviz("run --backend emu " + program("launch_time_limit.cu") + " --timeout 90");
  EXPECT_EQ(longer.exit_code, 0) << longer.out << longer.err;
  EXPECT_NE(longer.out.find("cudaSuccess, launch time limit: 90.0"), std::string::npos)
      << longer.out << longer.err;
  const coop::testing::Ran shorter =
      coopviz("run --backend emu " + program("launch_time_limit.cu") + " --timeout 30");
  EXPECT_NE(shorter.out.find("cudaSuccess, launch time limit: the executor's"), std::string::npos)
      << shorter.out << shorter.err;
}

// Threads that keep stepping: how far they got, where one was, and that --timeout gives more.
TEST(ProgramTimeouts, StillMakingProgressSaysHowFarAndSuggestsALongerTimeout) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/slow_progress.cu") + " --timeout 3");
  EXPECT_EQ(r.exit_code, 128 + 9);
  EXPECT_NE(r.err.find("ran longer than 3 s and was stopped in kernel count_up, still making "
                       "progress: 0 of 4 blocks finished"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("was at line 5"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--timeout 3 can be raised"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("no thread moved"), std::string::npos) << r.err;
}

struct SurfaceCase {
  const char* file;
  std::vector<std::string> kernels;  // the launches its trace holds, in order
};

// Nine graph launches of two kernel nodes each: three of the graph built by hand, three captured
// and three of its clone.
std::vector<std::string> graph_launches() {
  std::vector<std::string> k;
  for (int i = 0; i < 9; ++i) k.insert(k.end(), {"reduce", "reduceFinal"});
  return k;
}

class SurfacePrograms : public ::testing::TestWithParam<SurfaceCase> {};

TEST_P(SurfacePrograms, PassOnTheEmulatorWithEveryLaunchTraced) {
  const SurfaceCase c = GetParam();
  const std::string stem = std::filesystem::path(c.file).stem().string();
  const std::string trace =
      (std::filesystem::temp_directory_path() / (stem + "-surface.cvt")).string();
  const coop::testing::Ran r =
      coopviz("run --backend emu --trace-launches all " + program(c.file) + " --trace " + trace);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
  auto launches = coop::load_traces(trace);
  if (c.kernels.empty()) return;
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), c.kernels.size());
  // Each launch is in the trace under its kernel's name (a kernel with no barrier or atomic
  // records no events of its own).
  for (size_t k = 0; k < c.kernels.size(); ++k)
    EXPECT_EQ((*launches)[k].header.kernel, c.kernels[k]) << "launch " << k;
  std::filesystem::remove(trace);
}

// Both ways nvcc builds a program: device code and host half apart (the default), and whole.
TEST_P(SurfacePrograms, BuildForTheGpuWithNvccBothWays) {
  COOPVIZ_NVCC_BUILD_ONLY_WITH_A_GPU_UNLESS(GetParam().file == std::string("graph_sum.cu"));
  coop::app::ProgramOptions p;
  p.file = program(GetParam().file);
  p.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  for (const bool whole : {false, true}) {
    if (whole) setenv("COOPVIZ_GPU_BUILD", "whole", 1);
    auto build = coop::app::build_program(p);
    unsetenv("COOPVIZ_GPU_BUILD");
    ASSERT_TRUE(build.ok()) << (whole ? "whole: " : "apart: ") << build.status().message();
    EXPECT_TRUE(std::filesystem::exists(build->executable));
    EXPECT_EQ(build->halves, !whole) << build->whole_because;
  }
}

TEST_P(SurfacePrograms, PassOnTheGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const coop::testing::Ran r = coopviz("run --backend gpu " + program(GetParam().file));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Runtime, SurfacePrograms,
    ::testing::Values(SurfaceCase{"clock_blocks.cu", {"timedReduction"}},
                      SurfaceCase{"spin_delay.cu",
                                  {"clock_block", "clock_block", "clock_block", "clock_block",
                                   "spin_clock64", "sleep_steps"}},
                      SurfaceCase{"graph_sum.cu", graph_launches()},
                      SurfaceCase{"memory_pool.cu", {"vectorAdd"}},
                      SurfaceCase{"error_names.cu", {}}),
    [](const auto& info) { return std::filesystem::path(info.param.file).stem().string(); });

}  // namespace
