// A program opened in the window stays live: saving it reruns it in the background and hands
// back the new trace; a save that does not compile hands back the compiler's words.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "app/program/watcher.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {
namespace fs = std::filesystem;

using coop::testing::read;

// Saves `text` as `file`, with a modification time later than the last one.
void save(const fs::path& file, const std::string& text) {
  const auto before = fs::exists(file) ? fs::last_write_time(file) : fs::file_time_type{};
  std::ofstream(file) << text;
  fs::last_write_time(file, std::max(before + std::chrono::seconds(1), fs::last_write_time(file)));
}

std::optional<ProgramWatcher::Outcome> wait(ProgramWatcher& w, double& now) {
  for (int i = 0; i < 600; ++i) {
    now += 1.0;
    if (auto o = w.poll(now)) return o;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::nullopt;
}

TEST(ProgramWatcher, ASaveRerunsTheProgramAndABrokenOneSaysWhy) {
  const fs::path dir = fs::temp_directory_path() / ("coopviz-watch-" + std::to_string(getpid()));
  fs::create_directories(dir);
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  const fs::path file = dir / "live.cu";
  const std::string original =
      read(std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/tile_ranks.cu");
  save(file, original);
  ProgramOptions o;
  o.file = file.string();
  o.trace_out = (dir / "live.cvt").string();
  o.stdout_path = (dir / "stdout.txt").string();
  ProgramWatcher w(o, 0.0);
  double now = 0;
  EXPECT_FALSE(w.poll(now += 1)) << "unchanged sources start nothing";
  EXPECT_FALSE(w.busy());

  // Saved with 64-thread blocks: the rerun's launch has them.
  std::string edited = original;
  const size_t at = edited.find("tile_ranks<<<2, 128>>>");
  ASSERT_NE(at, std::string::npos);
  edited.replace(at, 22, "tile_ranks<<<4, 64>>>");
  save(file, edited);
  auto done = wait(w, now);
  ASSERT_TRUE(done);
  ASSERT_TRUE(done->ok) << done->message;
  auto launches = load_traces(done->trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ(launches->front().header.launch.block.x, 64u);
  EXPECT_EQ(launches->front().header.launch.grid.x, 4u);

  // Saved broken: the compiler's message, at the file's line.
  save(file, edited + "\nint broken(\n");
  done = wait(w, now);
  ASSERT_TRUE(done);
  EXPECT_FALSE(done->ok);
  EXPECT_NE(done->message.find(file.string() + ":"), std::string::npos) << done->message;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace coop::app
