#include "device/paths/data_dirs.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace coop {
namespace {

namespace fs = std::filesystem;

TEST(DataDirs, ABinaryInTheBuildTreeUsesTheTreesItWasBuiltFrom) {
  unsetenv("COOPVIZ_ASSETS");
  const DataDirs d = data_dirs();
  const fs::path source = COOPVIZ_SOURCE_DIR;
  ASSERT_EQ(d.traces.size(), 1u);
  EXPECT_EQ(d.traces[0], source / "assets/traces");
  EXPECT_TRUE(fs::is_regular_file(d.lessons / "block_reduce/lesson.md"));
  EXPECT_TRUE(fs::is_regular_file(d.programs / "runtime_calls.cu"));
  EXPECT_TRUE(fs::is_regular_file(d.headers / "device/byo/include/cuda_runtime.h"));
  // What a user's program links on either backend (COOPVIZ_PROGRAM_LIBRARIES and its GPU list).
  for (const char* library :
       {"libcoopviz_byo_runtime.a", "libcoopviz_byo_gpu_runtime.a", "libcoopviz_emu.a",
        "libcoopviz_gpu.a", "libcoopviz_launch.a", "libcoopviz_occupancy.a", "libcoopviz_trace.a"})
    EXPECT_TRUE(fs::is_regular_file(d.libraries / library)) << library;
}

TEST(DataDirs, TheEnvironmentsFoldersComeFirst) {
  setenv("COOPVIZ_ASSETS", "/somewhere/assets", 1);
  const DataDirs d = data_dirs();
  unsetenv("COOPVIZ_ASSETS");
  ASSERT_EQ(d.traces.size(), 2u);
  EXPECT_EQ(d.traces[0], fs::path("/somewhere/assets/traces"));
  EXPECT_EQ(d.traces[1], fs::path(COOPVIZ_SOURCE_DIR) / "assets/traces");
}

}  // namespace
}  // namespace coop
