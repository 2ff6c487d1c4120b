// A lesson's program, run through `coopviz run` as the lesson's runner runs it, refuses what its
// lesson cannot run with one "error:" line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/app/run_coopviz.hpp"

namespace {

std::string folder_of(const std::string& id) {
  std::string folder = id;
  std::replace(folder.begin(), folder.end(), '-', '_');
  return std::string(COOPVIZ_SOURCE_DIR) + "/lessons/" + folder;
}

// A program refuses what its lesson cannot run: one "error:" line, exit status 2.
TEST(LessonPrograms, ArgumentsTheLessonCannotRunAreOneErrorLine) {
  const std::string file = folder_of("tiled-partitions") + "/tiled_partitions.cu";
  const std::string cache = coop::testing::program_test_cache();
  for (const auto& [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"--block=96", "block 96,1,1 has 96 threads, not a multiple of 128"},
           {"--tile=3", "tile must be a power of two from 1 to 32: got 3"},
           {"--tiles=4", "unknown argument '--tiles=4'"}}) {
    const coop::testing::Ran r = coop::testing::run_coopviz_env(
        "XDG_CACHE_HOME=" + cache, "run --backend emu " + file + " -- " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  }
}

}  // namespace
