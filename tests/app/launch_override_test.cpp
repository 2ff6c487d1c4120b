// Launch overrides: a program's kernel run with another grid and block, from the command line
// (`--launch KERNEL=GRID/BLOCK`), from the window's Launch panel (through the watcher), and on
// both backends; an illegal one refused before anything runs, naming the limit it broke.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include <cuda_runtime_api.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "app/program/watcher.hpp"
#include "device/launch/launch_override.hpp"
#include "device/occupancy/presets.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop {
namespace {
namespace fs = std::filesystem;

using coop::testing::coopviz;
using coop::testing::program;

TEST(LaunchOverride, ParsesTheGridTheBlockOrBoth) {
  Result<LaunchOverride> both = parse_launch_override("scale=8,2/16,16");
  ASSERT_TRUE(both) << both.message();
  EXPECT_EQ(both->kernel, "scale");
  EXPECT_EQ(both->grid, (Dim3{8, 2, 1}));
  EXPECT_EQ(both->block, (Dim3{16, 16, 1}));
  EXPECT_EQ(to_string(*both), "scale=8,2/16,16");

  Result<LaunchOverride> block = parse_launch_override("reduce<256>=*/128");
  ASSERT_TRUE(block) << block.message();
  EXPECT_EQ(block->kernel, "reduce<256>");
  EXPECT_FALSE(block->grid);
  EXPECT_EQ(block->block, (Dim3{128, 1, 1}));

  Result<std::vector<LaunchOverride>> list =
      parse_launch_overrides(join_launch_overrides({*both, *block}));
  ASSERT_TRUE(list) << list.message();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ(to_string((*list)[1]), "reduce<256>=*/128");
}

TEST(LaunchOverride, ABadOneSaysTheFormAndWhatIsWrong) {
  struct Case {
    const char* text;
    const char* why;
  } cases[] = {
      {"scale/128", "no '='"},
      {"=4/128", "name is missing"},
      {"scale=4", "no '/'"},
      {"scale=*/*", "neither the grid nor the block"},
      {"scale=0/128", "at least 1"},
      {"scale=4/1,2,3,4", "more than 3"},
      {"scale=4/abc", "not a whole number"},
  };
  for (const Case& c : cases) {
    Result<LaunchOverride> o = parse_launch_override(c.text);
    ASSERT_FALSE(o) << c.text;
    EXPECT_NE(o.message().find("KERNEL=GRID/BLOCK"), std::string::npos) << o.message();
    EXPECT_NE(o.message().find(c.why), std::string::npos) << c.text << ": " << o.message();
  }
}

TEST(LaunchOverride, ABareNameMeansEveryInstantiationAndTheMostSpecificWins) {
  const LaunchOverride bare = *parse_launch_override("scale_all=*/64");
  EXPECT_TRUE(overrides_kernel(bare, "scale_all"));
  EXPECT_TRUE(overrides_kernel(bare, "scale_all<float, 2>"));
  EXPECT_TRUE(overrides_kernel(bare, "ns::scale_all<double, 4>"));
  EXPECT_FALSE(overrides_kernel(bare, "scale_all_twice"));
  EXPECT_FALSE(overrides_kernel(bare, "block_sums"));

  const LaunchOverride one = *parse_launch_override("scale_all<float,2>=*/32");
  EXPECT_TRUE(overrides_kernel(one, "scale_all<float, 2>"));
  EXPECT_FALSE(overrides_kernel(one, "scale_all<double, 4>"));

  const std::vector<LaunchOverride> list = {bare, one};
  EXPECT_EQ(find_launch_override(list, "scale_all<float, 2>"), &list[1]);
  EXPECT_EQ(find_launch_override(list, "scale_all<double, 4>"), &list[0]);
  EXPECT_EQ(find_launch_override(list, "block_sums"), nullptr);

  LaunchConfig c;
  c.grid = {16, 1, 1};
  c.block = {256, 1, 1};
  c.dynamic_smem = 1024;
  const LaunchConfig applied = apply(bare, c);
  EXPECT_EQ(applied.grid, (Dim3{16, 1, 1}));
  EXPECT_EQ(applied.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(applied.dynamic_smem, 1024u) << "what the program asks for besides stays";
}

TEST(LaunchOverride, AnIllegalOneNamesTheLimitOfTheDevice) {
  const DeviceProps& h100 = *find_preset("sm_90");
  EXPECT_TRUE(check_launch_override(*parse_launch_override("k=*/1024"), h100));
  Status big = check_launch_override(*parse_launch_override("k=*/2048"), h100);
  ASSERT_FALSE(big);
  EXPECT_NE(big.message().find("k=*/2048"), std::string::npos) << big.message();
  EXPECT_NE(big.message().find("limit of 1024 threads per block"), std::string::npos)
      << big.message();
  Status deep = check_launch_override(*parse_launch_override("k=*/1,1,128"), h100);
  ASSERT_FALSE(deep);
  EXPECT_NE(deep.message().find("64"), std::string::npos) << deep.message();
  Status tall = check_launch_override(*parse_launch_override("k=1,70000/*"), h100);
  ASSERT_FALSE(tall);
  EXPECT_NE(tall.message().find("65535"), std::string::npos) << tall.message();
}

TEST(LaunchOverrideCli, TheKernelRunsWithTheShapeAndTheReportKeepsTheProgramsOwn) {
  // tile_ranks.cu launches 2 blocks of 128; with 64-thread blocks half its elements go unranked,
  // and its own check says so.
  const testing::Ran r = coopviz("run --backend emu " + program("tile_ranks.cu") +
                                 " --launch 'tile_ranks=*/64' --json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["launches"].size(), 1u);
  const nlohmann::json& l = j["launches"][0];
  EXPECT_EQ(l["block"], nlohmann::json({64, 1, 1}));
  EXPECT_EQ(l["grid"], nlohmann::json({2, 1, 1}));
  EXPECT_EQ(l["program_block"], nlohmann::json({128, 1, 1}));
  EXPECT_EQ(l["launch_override"], "tile_ranks=*/64");
  EXPECT_NE(j["stdout"].get<std::string>().find("FAILED (128 wrong)"), std::string::npos)
      << j["stdout"];

  // With the grid doubled as well, every element is ranked again.
  const testing::Ran fixed =
      coopviz("run --backend emu " + program("tile_ranks.cu") + " --launch 'tile_ranks=4/64'");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out << fixed.err;
  EXPECT_NE(fixed.out.find("PASSED"), std::string::npos) << fixed.out;
}

TEST(LaunchOverrideCli, AnIllegalOneIsAUsageErrorAndNothingRuns) {
  const testing::Ran r =
      coopviz("run --backend emu " + program("tile_ranks.cu") + " --launch 'tile_ranks=*/2048'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "") << "the program did not run";
  EXPECT_NE(r.err.find("coopviz: error: --launch tile_ranks=*/2048: block of 2048 threads"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("limit of 1024"), std::string::npos) << r.err;
  const testing::Ran lesson = coopviz("run block-reduce --launch 'x=*/64'");
  EXPECT_EQ(lesson.exit_code, 2);
  EXPECT_NE(lesson.err.find("a lesson takes --grid and --block"), std::string::npos) << lesson.err;
}

TEST(LaunchOverrideCli, ACooperativeGridTooLargeIsRefusedByTheLaunchWithItsLimit) {
  const testing::Ran r = coopviz("run --backend emu " + program("grid_sync_sum.cu") +
                                 " --launch 'two_phase_sum=100000/1024'");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find("(with --launch two_phase_sum=100000/1024): grid of 100000 blocks "
                       "exceeds the 264 that can be co-resident"),
            std::string::npos)
      << r.err;
}

TEST(LaunchOverrideCli, OneForAKernelNeverLaunchedIsSaid) {
  const testing::Ran r = coopviz("run --backend emu " + program("kernel_forms.cu") +
                                 " --launch 'scale=8/32' --launch 'scale_all=*/32' --json");
  EXPECT_NE(r.err.find("--launch scale=8/32 changed nothing: no launch of a kernel named scale "
                       "(it launched scale_all<float, 2>, scale_all<double, 4>, block_sums)"),
            std::string::npos)
      << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ran");
  EXPECT_EQ(j["exit_code"], r.exit_code) << "the program's own status: its check, not coopviz's";
  EXPECT_EQ(j["unused_launch_overrides"], nlohmann::json({"scale=8/32"}));
  // The bare name took both instantiations, and only them.
  ASSERT_EQ(j["launches"].size(), 3u);
  EXPECT_EQ(j["launches"][0]["block"][0], 32);
  EXPECT_EQ(j["launches"][1]["block"][0], 32);
  EXPECT_FALSE(j["launches"][2].contains("launch_override"));
}

TEST(LaunchOverrideWatcher, ChangingTheOverridesRerunsWithoutASave) {
  setenv("XDG_CACHE_HOME", testing::program_test_cache().c_str(), 1);
  const fs::path dir = fs::temp_directory_path() / ("coopviz-override-" + std::to_string(getpid()));
  fs::create_directories(dir);
  app::ProgramOptions o;
  o.file = program("tile_ranks.cu");
  o.trace_out = (dir / "live.cvt").string();
  o.stdout_path = (dir / "stdout.txt").string();
  app::ProgramWatcher w(o, 0.0);
  EXPECT_FALSE(w.poll(1)) << "unchanged sources start nothing";
  w.set_launch_overrides({*parse_launch_override("tile_ranks=4/64")});
  EXPECT_TRUE(w.rerun_wanted());
  std::optional<app::ProgramWatcher::Outcome> done;
  for (int i = 0; i < 600 && !done; ++i) {
    done = w.poll(2);
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(done);
  ASSERT_TRUE(done->ok) << done->message;
  EXPECT_FALSE(done->saved);
  auto launches = load_traces(done->trace);
  ASSERT_TRUE(launches) << launches.message();
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ(launches->front().header.launch.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(launches->front().header.launch.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(launches->front().header.params.at("program's block"), "128");
  fs::remove_all(dir);
}

// On a GPU the override is applied the same way, and the traces of both backends agree.
TEST(LaunchOverrideGpu, BothBackendsRunTheOverriddenShapeAndAgree) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const fs::path dir = fs::temp_directory_path();
  const std::string on_gpu = (dir / "override-gpu.cvt").string();
  const std::string on_emu = (dir / "override-emu.cvt").string();
  const std::string args = program("tile_ranks.cu") + " --launch 'tile_ranks=4/64' --trace ";
  const testing::Ran g = coopviz("run --backend gpu " + args + on_gpu);
  ASSERT_EQ(g.exit_code, 0) << g.out << g.err;
  const testing::Ran e = coopviz("run --backend emu " + args + on_emu);
  ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
  auto gpu = load_traces(on_gpu);
  auto emu = load_traces(on_emu);
  ASSERT_TRUE(gpu && emu);
  ASSERT_EQ(gpu->size(), 1u);
  ASSERT_EQ(emu->size(), 1u);
  EXPECT_EQ(gpu->front().header.launch.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(gpu->front().header.params.at("launch override"), "tile_ranks=4/64");
  const TraceDiff diff = compare_deterministic(emu->front(), gpu->front());
  std::printf("tile_ranks=4/64: %llu events compared, %llu differ\n",
              (unsigned long long)diff.events_compared, (unsigned long long)diff.mismatches);
  EXPECT_TRUE(diff.equal()) << (diff.examples.empty() ? "" : diff.examples[0]);
  fs::remove(on_gpu);
  fs::remove(on_emu);
}

}  // namespace
}  // namespace coop
