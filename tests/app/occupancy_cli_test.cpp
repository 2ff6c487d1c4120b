// `coopviz occupancy` end to end: the seed's examples through the real binary, the JSON keys
// scripts rely on, and bad input that must fail with a message naming the value and the limit.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::Ran;
using coop::testing::run_coopviz;

nlohmann::json json_of(const std::string& args) {
  const Ran r = run_coopviz(args + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

TEST(OccupancyCli, SeedExamplesComeOutExactly) {
  nlohmann::json j = json_of("occupancy --cc 10.0 --block 768");
  EXPECT_EQ(j["active_blocks_per_sm"], 2);
  EXPECT_EQ(j["occupancy"], 0.75);
  j = json_of("occupancy --cc 10.0 --block 32");
  EXPECT_EQ(j["active_blocks_per_sm"], 32);
  EXPECT_EQ(j["occupancy"], 0.5);
  EXPECT_EQ(j["limiting"], nlohmann::json::array({"blocks"}));
  j = json_of("occupancy --arch sm_100 --block 256 --dyn-smem 100K");
  EXPECT_EQ(j["active_blocks_per_sm"], 2);
  EXPECT_EQ(j["limiting"], nlohmann::json::array({"shared_memory"}));
}

TEST(OccupancyCli, JsonHasTheDocumentedKeys) {
  const nlohmann::json j = json_of("occupancy --arch sm_90 --block 16,16 --regs 40 --grid 5000");
  for (const char* key : {"active_blocks_per_sm", "active_warps_per_sm", "active_threads_per_sm",
                          "occupancy", "limits", "limiting", "allocated_regs_per_block",
                          "allocated_smem_per_block", "waves", "max_cooperative_grid"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* key : {"warps", "registers", "shared_memory", "blocks", "barriers"})
    EXPECT_TRUE(j["limits"].contains(key)) << key;
  EXPECT_EQ(j["input"]["threads_per_block"], 256);
  EXPECT_EQ(j["active_blocks_per_sm"], 6);  // 40 registers: 1280 per warp -> 48 warps
  EXPECT_EQ(j["max_cooperative_grid"], 6 * 132);
  EXPECT_NEAR(j["waves"].get<double>(), 5000.0 / 792.0, 1e-9);
}

TEST(OccupancyCli, SweepListsTheCurrentPoint) {
  const nlohmann::json j = json_of("occupancy --cc 8.6 --block 192 --sweep block");
  ASSERT_TRUE(j.contains("sweep"));
  const nlohmann::json& s = j["sweep"];
  EXPECT_EQ(s["axis"], "block");
  EXPECT_EQ(s["points"].size(), 32u);  // 32, 64, ..., 1024
  const int current = s["current_index"];
  EXPECT_EQ(s["points"][current]["x"], 192);
  EXPECT_EQ(s["points"][current]["active_blocks_per_sm"], j["active_blocks_per_sm"]);
}

TEST(OccupancyCli, LessonKernelUsesTheCompilerReport) {
  const nlohmann::json j =
      json_of("occupancy --arch sm_90 --block 256 --kernel reduction-performance/seed_atomic");
  EXPECT_EQ(j["input"]["static_smem"], 4096);  // __shared__ float temp[1024]
  EXPECT_GT(j["input"]["regs_per_thread"].get<int>(), 0);
  EXPECT_NE(j["input"]["resources_source"].get<std::string>().find("ptxas"), std::string::npos);
  // With a cap a program's own build under that cap answers: what ptxas really did.
  const std::string lessons = std::string(COOPVIZ_SOURCE_DIR) + "/lessons";
  const nlohmann::json capped =
      json_of("occupancy --arch sm_90 --block 256 --kernel many_live_values --maxrregcount 32 "
              "--program " + lessons + "/occupancy/occupancy.cu -I " + lessons + "/lesson_protocol");
  EXPECT_EQ(capped["input"]["regs_per_thread"], 32);
  EXPECT_NE(capped["input"]["resources_source"].get<std::string>().find("--maxrregcount 32"),
            std::string::npos);
  EXPECT_EQ(capped["occupancy"], 1.0);
}

// Any program's kernel, from the compiler's report on it: the 4 KB shared array, and the block a
// __launch_bounds__(128, 4) allows.
TEST(OccupancyCli, AProgramsKernelUsesTheCompilerReportOnIt) {
  const std::string program =
      std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/kernel_resources.cu";
  const nlohmann::json j = json_of("occupancy --arch sm_90 --block 256 --kernel reverse_in_shared "
                                   "--program " + program);
  EXPECT_EQ(j["input"]["static_smem"], 4096);
  EXPECT_GT(j["input"]["regs_per_thread"].get<int>(), 0);
  EXPECT_NE(j["input"]["resources_source"].get<std::string>().find("ptxas -v for sm_90"),
            std::string::npos) << j.dump();
  const Ran bounded = run_coopviz("occupancy --arch sm_90 --block 256 --kernel scale_bounded "
                                  "--program " + program);
  EXPECT_NE(bounded.exit_code, 0);
  EXPECT_NE(bounded.err.find("limit of 128 threads per block"), std::string::npos) << bounded.err;
  for (const auto& [args, said] :
       {std::pair<std::string, std::string>{"--kernel k --program /no/such.cu", "no such file"},
        {"--program " + program, "give --kernel NAME too"},
        {"--kernel nothing_here --program " + program, "no kernel the compiler reported on is called"}}) {
    const Ran r = run_coopviz("occupancy --arch sm_90 --block 256 " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(said), std::string::npos) << args << ": " << r.err;
  }
}

TEST(OccupancyCli, BadInputFailsNamingTheValueAndTheLimit) {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"occupancy --cc 9.0 --block 2048", "exceeds the limit of 1024"},
      {"occupancy --cc 9.0 --block 256 --regs 300", "--regs 300 exceeds the limit of 255"},
      {"occupancy --cc 9.0 --block 256 --carveout 101", "--carveout 101 exceeds the limit of 100"},
      {"occupancy --cc 9.0 --block 256 --dyn-smem 240K", "232448 bytes"},
      {"occupancy --cc 9.0 --block 1024 --regs 255", "more than the 65536"},
      {"occupancy --arch sm_70 --block 256", "known presets are sm_75"},
      {"occupancy --block 256", "--arch sm_XX, --cc M.m or --device N"},
      {"occupancy --cc 9.0 --arch sm_90 --block 256", "only one of"},
      {"occupancy --cc 9.0 --block 256 --sweep threads", "block, regs or smem"},
      {"occupancy --cc 8.0 --block 256 --cluster 2", "9.0 or newer"},
  };
  for (const Case& c : cases) {
    const Ran r = run_coopviz(c.args);
    EXPECT_NE(r.exit_code, 0) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
}

}  // namespace
