// The runtime surface of user programs beyond plain launches. Programs that time themselves or
// wait on the clock (tests/programs/clock_blocks.cu, spin_delay.cu) run on the emulator in
// modelled time and pass their own checks; a program stopped at its time limit is told apart by
// whether its threads were still making progress or none had moved. All build with nvcc and,
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

std::string program(const std::string& name) {
  return std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/" + name;
}

std::string cache_dir() {
  return (std::filesystem::path(COOPVIZ_BINARY).parent_path() / "program-test-cache").string();
}

coop::testing::Ran coopviz(const std::string& args) {
  return coop::testing::run_coopviz_env("XDG_CACHE_HOME=" + cache_dir(), args);
}

// A thread looping on a load nobody changes never reaches a step point: named, with its line.
TEST(ProgramTimeouts, NoThreadMovedNamesTheThreadAndItsLine) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/endless_loop.cu") + " --timeout 3");
  EXPECT_EQ(r.exit_code, 128 + 9);
  EXPECT_NE(r.err.find("ran longer than 3 s and was stopped in kernel spin: no thread moved for"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("thread (0,0,0) of block (0,0,0) runs at line 3 "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("still making progress"), std::string::npos) << r.err;
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

struct Case {
  const char* file;
  std::vector<std::string> kernels;  // the launches its trace holds, in order
};

class SurfacePrograms : public ::testing::TestWithParam<Case> {};

TEST_P(SurfacePrograms, PassOnTheEmulatorWithEveryLaunchTraced) {
  const Case c = GetParam();
  const std::string stem = std::filesystem::path(c.file).stem().string();
  const std::string trace = (std::filesystem::temp_directory_path() / (stem + "-surface.cvt")).string();
  const coop::testing::Ran r = coopviz("run --backend emu " + program(c.file) + " --trace " + trace);
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

TEST_P(SurfacePrograms, BuildForTheGpuWithNvcc) {
  coop::app::ProgramOptions p;
  p.file = program(GetParam().file);
  p.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", cache_dir().c_str(), 1);
  auto build = coop::app::build_program(p);
  ASSERT_TRUE(build.ok()) << build.status().message();
  EXPECT_TRUE(std::filesystem::exists(build->executable));
}

TEST_P(SurfacePrograms, PassOnTheGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const coop::testing::Ran r = coopviz("run --backend gpu " + program(GetParam().file));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
}

INSTANTIATE_TEST_SUITE_P(Runtime, SurfacePrograms,
                         ::testing::Values(Case{"clock_blocks.cu", {"timedReduction"}},
                                           Case{"spin_delay.cu",
                                                {"clock_block", "clock_block", "clock_block",
                                                 "clock_block", "spin_clock64", "sleep_steps"}}),
                         [](const auto& info) {
                           return std::filesystem::path(info.param.file).stem().string();
                         });

}  // namespace
