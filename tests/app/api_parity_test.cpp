// The traced Cooperative Groups are one API on both backends: what CUDA's own refuse at compile
// time (tests/programs/failing), coopviz refuses as clearly when it builds the program for the
// emulator (host compiler) and for the GPU (nvcc; no GPU needed). What they accept runs: see the
// Programs and ProgramBuild lists in program_cli_test.cpp (every_name.cu uses every name, and the
// build compiles it for both backends). Names added to both: the atomics' scoped forms.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>

#include "app/program/program.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

struct Refusal {
  const char* file;  // under tests/programs/failing
  int line;          // the program's line that asks for it
  const char* says;  // words of the compile error, the same for both backends
};
void PrintTo(const Refusal& r, std::ostream* os) {
  *os << r.file;
}

class RefusedAsCudaRefusesIt : public ::testing::TestWithParam<Refusal> {
 protected:
  // The build's messages, for the GPU with nvcc when `gpu_arch` is set, else for the emulator.
  std::string build_error(const std::string& gpu_arch) {
    coop::app::ProgramOptions p;
    p.file = std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/failing/" + GetParam().file;
    p.gpu_arch = gpu_arch;
    setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
    auto build = coop::app::build_program(p);
    EXPECT_FALSE(build.ok()) << "it compiled";
    return build.ok() ? "" : build.status().message();
  }
  std::string file() const { return GetParam().file; }
};

TEST_P(RefusedAsCudaRefusesIt, OnTheEmulator) {
  const std::string m = build_error("");
  EXPECT_NE(m.find(GetParam().says), std::string::npos) << m;
  EXPECT_NE(m.find(file() + ":" + std::to_string(GetParam().line) + ":"), std::string::npos) << m;
}

TEST_P(RefusedAsCudaRefusesIt, ForTheGpu) {
  COOPVIZ_NVCC_BUILD_ONLY_WITH_A_GPU_UNLESS(file() == "reduce_operator_type.cu");
  const std::string m = build_error("sm_90");
  EXPECT_NE(m.find(GetParam().says), std::string::npos) << m;
  EXPECT_NE(m.find("line " + std::to_string(GetParam().line) + " of"), std::string::npos) << m;
}

INSTANTIATE_TEST_SUITE_P(
    Programs, RefusedAsCudaRefusesIt,
    ::testing::Values(
        Refusal{"reduce_operator_type.cu", 10, "Operator and argument types differ"},
        Refusal{"broadcast_from_block.cu", 9,
                "invoke_one_broadcast needs a thread_block_tile or a coalesced_group"},
        Refusal{"wide_value_across_warps.cu", 10,
                "Collectives with tiles larger than 32 threads are limited to types"},
        Refusal{"reduce_over_block.cu", 10, "This group does not exclusively represent a tile"},
        Refusal{"scan_over_runtime_tile.cu", 11,
                "This group does not exclusively represent a tile"},
        Refusal{"copy_with_runtime_tile.cu", 12,
                "Async copy is only supported for groups that represent private shared memory"}),
    [](const auto& info) { return std::filesystem::path(info.param.file).stem().string(); });

// CUDA's atomic functions at block and system scope are traced as the device-scope ones are, and
// carry their scope's flag: every thread of every_name.cu's second launch makes each call once.
TEST(ScopedAtomics, AreRecordedWithTheirScope) {
  const std::string file = std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/every_name.cu";
  const std::string trace =
      (std::filesystem::temp_directory_path() / "every_name_scopes.cvt").string();
  const std::string cache = coop::testing::program_test_cache();
  const coop::testing::Ran r = coop::testing::run_coopviz_env(
      "XDG_CACHE_HOME=" + cache, "run --backend emu " + file + " --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 2u);
  const coop::Trace& memory = (*launches)[1];
  std::ifstream in(file);
  std::string text;
  int line = 0, calls = 0;
  while (std::getline(in, text)) {
    ++line;
    const bool block = text.find("_block(&counters") != std::string::npos;
    const bool system = text.find("_system(&counters") != std::string::npos;
    if (!block && !system) continue;
    ++calls;
    const uint16_t want = block ? coop::kFlagScopeBlock : coop::kFlagScopeSystem;
    int seen = 0;
    for (const coop::Event& e : memory.events)
      if (e.line == line && e.kind == coop::EventKind::Atomic) {
        ++seen;
        EXPECT_EQ(e.flags & (coop::kFlagScopeBlock | coop::kFlagScopeSystem), want) << text;
      }
    EXPECT_EQ(seen, 128) << text;
  }
  EXPECT_EQ(calls, 22);  // eleven functions, two scopes each
  std::filesystem::remove(trace);
}

}  // namespace
