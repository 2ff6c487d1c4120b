// Kernels that launch kernels (CUDA Dynamic Parallelism, CDP2), run unmodified through
// `coopviz run` (tests/programs/dynamic_parallelism/): each program checks its own result against
// a CPU run of the same recursion. On the emulator every child launch is a launch of the trace
// naming the launch and thread that made it (device/byo/device_launches.hpp); on a GPU the
// children run untraced and the run says how many.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/program/program.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

std::string dp_program(const std::string& name) {
  return (fs::path(COOPVIZ_SOURCE_DIR) / "tests/programs/dynamic_parallelism" / name).string();
}

using coop::testing::coopviz;

// `coopviz run --json` of a program, checked: it ran and passed its own check.
nlohmann::json run_json(const std::string& name, const std::string& options) {
  const coop::testing::Ran r = coopviz("run --json " + options + " " + dp_program(name));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  if (j.is_discarded()) return {};
  EXPECT_EQ(j.value("status", ""), "ran") << j.dump(2) << r.err;
  EXPECT_EQ(r.exit_code, 0) << j.dump(2) << r.err;
  EXPECT_NE(j.value("stdout", "").find("PASSED"), std::string::npos) << j.dump(2) << r.err;
  return j;
}

class DynamicParallelism : public ::testing::TestWithParam<std::string> {};

TEST_P(DynamicParallelism, RunsOnTheEmulatorAndPassesItsOwnCheck) {
  const nlohmann::json j = run_json(GetParam(), "--backend emu");
  // The first launch is the host's; at least one more was made by a kernel, and says by whom.
  ASSERT_GE(j["launches"].size(), 2u) << j.dump(2);
  EXPECT_FALSE(j["launches"][0].contains("launched_by"));
  EXPECT_EQ(j["launches"][1].value("launched_by", ""),
            "launch 1 (kernel " + j["launches"][0]["kernel"].get<std::string>() + ")");
  EXPECT_EQ(j["launches"][1].value("launch_depth", ""), "1");
  EXPECT_EQ(j.value("device_launches_untraced", 1), 0);
}

// Under another order of the streams (a seed), still correct: they never relied on one.
TEST_P(DynamicParallelism, PassesUnderAnotherOrderOfItsStreams) {
  run_json(GetParam(), "--backend emu --seed 7");
}

TEST_P(DynamicParallelism, RunsOnTheGpuAndSaysItsChildrenWereNotTraced) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const nlohmann::json j = run_json(GetParam(), "--backend gpu");
  EXPECT_GT(j.value("device_launches_untraced", 0), 0) << j.dump(2);
  EXPECT_EQ(j.value("gpu_build", ""), "whole") << j.dump(2);
}

// nvcc builds it (no GPU needed) whole, as relocatable device code: the halves' way has no
// device link. One program here (each nvcc build of relocatable code takes about a minute); the
// GPU test builds every one the same way.
TEST(DynamicParallelismBuild, IsRelocatableDeviceCodeBuiltWhole) {
  coop::app::ProgramOptions o;
  o.file = dp_program("depth_tree.cu");
  o.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  auto build = coop::app::build_program(o);
  ASSERT_TRUE(build.ok()) << build.status().message();
  EXPECT_FALSE(build->halves);
  EXPECT_NE(build->whole_because.find("kernels launch kernels"), std::string::npos)
      << build->whole_because;
}

INSTANTIATE_TEST_SUITE_P(Programs, DynamicParallelism,
                         ::testing::Values("recursive_quicksort.cu", "depth_tree.cu",
                                           "adaptive_simpson.cu"),
                         [](const auto& info) { return fs::path(info.param).stem().string(); });

// Every launch of the tree traced: each names its parent launch, thread and stream, and the tail
// launch comes last, after every grid of the tree it must see.
TEST(DynamicParallelismTrace, NamesWhoLaunchedEachGrid) {
  const nlohmann::json j = run_json("depth_tree.cu", "--backend emu --trace-launches all");
  const auto& l = j["launches"];
  // root, then the tree's grids (2 + 4 + 8 of them launch a level each: 1 + 2 + 4 + 8), then
  // the summary.
  ASSERT_EQ(l.size(), 1u + 15u + 1u) << j.dump(2);
  EXPECT_EQ(l[0]["kernel"], "root");
  EXPECT_EQ(l[1]["kernel"], "level");
  EXPECT_EQ(l[1]["launched_by"], "launch 1 (kernel root)");
  EXPECT_EQ(l[1]["launching_thread"], "block (0,0,0), thread (0,0,0)");
  EXPECT_EQ(l[1]["device_stream"], "cudaStreamFireAndForget");
  EXPECT_EQ(l[2]["launched_by"], "launch 2 (kernel level)");
  EXPECT_EQ(l[2]["device_stream"], "the block's NULL stream");
  EXPECT_EQ(l[2]["launch_depth"], "2");
  EXPECT_EQ(l.back()["kernel"], "summary");
  EXPECT_EQ(l.back()["device_stream"], "cudaStreamTailLaunch");
  EXPECT_EQ(l.back()["launched_by"], "launch 1 (kernel root)");
  int deepest = 0;
  for (const auto& launch : l)
    deepest = std::max(deepest, std::stoi(launch.value("launch_depth", "0")));
  EXPECT_EQ(deepest, 4);
}

// CDP1's device-side cudaDeviceSynchronize, removed in CUDA 12, is refused as nvcc 13 refuses it.
const char* const kRefusal =
    "calling a __host__ function(\"cudaDeviceSynchronize\") from a __global__ "
    "function(\"parent\") is not allowed";
std::string failing_program() {
  return std::string(COOPVIZ_SOURCE_DIR) +
         "/tests/programs/failing/device_synchronize_in_kernel.cu";
}

TEST(DeviceSideSynchronize, IsRefusedOnTheEmulatorInNvccsWords) {
  const coop::testing::Ran r = coopviz("run --backend emu " + failing_program());
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(kRefusal), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("device_synchronize_in_kernel.cu:8:"), std::string::npos) << r.err;
}

// nvcc's own words (no GPU needed, only nvcc).
TEST(DeviceSideSynchronize, IsRefusedForTheGpuByNvcc) {
  coop::app::ProgramOptions o;
  o.file = failing_program();
  o.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  auto build = coop::app::build_program(o);
  ASSERT_FALSE(build.ok());
  EXPECT_NE(build.status().message().find(kRefusal), std::string::npos) << build.status().message();
  EXPECT_NE(build.status().message().find("device_synchronize_in_kernel.cu(8)"), std::string::npos)
      << build.status().message();
}

// launch_limits.cu under a pending-launch limit of `limit` (the program's argument `args` sets
// it), checked: its chain stopped at the limit's depth, with the error an H200 under CUDA 13 gives
// there at its default of 2048, and it passed its own check. On the emulator a grid's children run
// once its threads have all finished, so the fan-out makes exactly `limit` launches; on a GPU
// children that finish early free their places, and more may be made.
coop::testing::Ran run_launch_limits(const std::string& backend, const std::string& args,
                                     int limit) {
  const coop::testing::Ran r =
      coopviz("run --backend " + backend + " " + dp_program("launch_limits.cu") + args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string n = std::to_string(limit);
  EXPECT_NE(r.out.find("deepest grid at depth " + n +
                       "; the launch below it: cudaErrorLaunchPendingCountExceeded"),
            std::string::npos)
      << r.out << r.err;
  const std::string made = backend == "emu" ? n + " launched, " + n + " refused" : "";
  const std::string fan_out =
      "pending launch limit " + n + ": " + std::to_string(2 * limit) + " threads, " + made;
  EXPECT_NE(r.out.find(fan_out), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
  return r;
}

// CUDA's limit fails the launch with CUDA's error for the thread that made it, and coopviz names
// it once for each kernel that met it: no more launches outstanding (made, and not complete with
// all their descendants) than cudaLimitDevRuntimePendingLaunchCount. A chain of grids each
// launching the next holds all of them outstanding, so it stops at the limit's depth, 2048 by
// default; there is no other limit on the depth.
TEST(DynamicParallelismLimits, AreCudasAndNamed) {
  const coop::testing::Ran r = run_launch_limits("emu", "", 2048);
  // Once for the chain (dive launching dive), once for the fan-out (fan_out launching leaf).
  size_t named = 0;
  const std::string error =
      "(cudaErrorLaunchPendingCountExceeded, which the launching thread's "
      "cudaGetLastError returns)";
  for (size_t at = r.err.find(error); at != std::string::npos; at = r.err.find(error, at + 1))
    ++named;
  EXPECT_EQ(named, 2u) << r.err;
  EXPECT_NE(r.err.find("kernel dive (block (0,0,0), thread (0,0,0), the first such thread) could "
                       "not launch kernel dive: 2048 device-side launches were already "
                       "outstanding"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("cudaLimitDevRuntimePendingLaunchCount"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("cudaErrorLaunchMaxDepthExceeded"), std::string::npos) << r.err;
}

// cudaDeviceSetLimit from the host before its first launch sets the limit, and
// cudaDeviceGetLimit reads it back: the chain and the fan-out meet the new one.
TEST(DynamicParallelismLimits, FollowCudaDeviceSetLimit) {
  const coop::testing::Ran r = run_launch_limits("emu", " -- 100", 100);
  EXPECT_NE(r.err.find("100 device-side launches were already outstanding"), std::string::npos)
      << r.err;
}

// The GPU's own answers, printed: the chain's depth and error must be the emulator's.
TEST(DynamicParallelismLimits, GpuAgreesWithTheEmulator) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  for (const auto& [args, limit] : {std::pair<std::string, int>{"", 2048}, {" -- 100", 100}}) {
    const coop::testing::Ran r = run_launch_limits("gpu", args, limit);
    std::printf("launch_limits.cu%s on the GPU:\n%s", args.c_str(), r.out.c_str());
  }
}

}  // namespace
