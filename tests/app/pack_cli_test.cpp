// coopviz pack check and pack summary, run as a teacher runs them: a good pack, a pack with
// errors (each on its own line with the file and line, exit 2), and the summary of a progress
// file in a temporary folder (never the real home's).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/exercise/progress.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {

using coop::testing::fresh_folder;
using coop::testing::Ran;
using coop::testing::run_coopviz_env;

const std::string kPackPath =
    "title: Week one\n"
    "lesson groups-and-ranks step 2\n"
    "exercise tile-ranks\n"
    "question tiled-partitions/which-tile\n"
    "exercise block-sum\n"
    "note: homework\n";

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

// HOME and XDG_CONFIG_HOME in `dir`, so that no test reads or writes the user's own files.
Ran run_in(const std::filesystem::path& dir, const std::string& args) {
  return run_coopviz_env("HOME=" + dir.string() + " XDG_CONFIG_HOME=" + (dir / "config").string(),
                         args);
}

TEST(PackCli, CheckAcceptsAGoodPackAndCountsItsItems) {
  const std::filesystem::path dir = fresh_folder("pack-check");
  const std::string pack = write(dir / "week.pack", kPackPath);
  const Ran r = run_in(dir, "pack check " + pack);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"Week one\", 4 items (1 lessons, 2 exercises, 1 questions): ok"),
            std::string::npos)
      << r.out;
  std::filesystem::remove_all(dir);
}

TEST(PackCli, CheckGivesEveryErrorOnALineWithFileAndLine) {
  const std::filesystem::path dir = fresh_folder("pack-check-bad");
  const std::string pack = write(dir / "bad.pack",
                                 "title: Broken\n"
                                 "lesson block-reduce block 2048\n"
                                 "lesson nowhere\n");
  const Ran r = run_in(dir, "pack check " + pack);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("coopviz: error: " + pack + ":2: block of 2048 threads"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("limit of 1024 threads per block\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("coopviz: error: " + pack + ":3: unknown lesson 'nowhere'"),
            std::string::npos)
      << r.err;
  const Ran missing = run_in(dir, "pack check " + (dir / "none.pack").string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("the pack " + (dir / "none.pack").string() + ": No such file"),
            std::string::npos)
      << missing.err;
  const Ran bare = run_in(dir, "pack");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("commands: check, summary"), std::string::npos) << bare.err;
  std::filesystem::remove_all(dir);
}

TEST(PackCli, SummaryJsonReadsTheProgressFileGiven) {
  const std::filesystem::path dir = fresh_folder("pack-summary");
  const std::string pack = write(dir / "week.pack", kPackPath);
  ProgressBook book;
  book.exercises["tile-ranks"] = {4, true, "t.cu"};
  book.exercises["block-sum"] = {1, false, "b.cu"};
  const std::string progress = (dir / "progress.json").string();
  ASSERT_TRUE(save_progress(progress, book).ok());

  const Ran r = run_in(dir, "pack summary " + pack + " --json --progress " + progress);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["title"], "Week one");
  EXPECT_EQ(
      j["counts"],
      (nlohmann::json{
          {"exercises", 2}, {"solved", 1}, {"attempted", 2}, {"lessons", 1}, {"questions", 1}}));
  ASSERT_EQ(j["exercises"].size(), 2u);
  EXPECT_EQ(j["exercises"][0]["id"], "tile-ranks");
  EXPECT_EQ(j["exercises"][0]["solved"], true);
  EXPECT_EQ(j["exercises"][0]["attempts"], 4);
  EXPECT_EQ(j["exercises"][1]["attempts"], 1);
  EXPECT_EQ(j["lessons"][0], (nlohmann::json{{"id", "groups-and-ranks"}, {"step", 2}}));
  EXPECT_EQ(j["questions"][0],
            (nlohmann::json{{"lesson", "tiled-partitions"}, {"id", "which-tile"}}));

  // The text form says the same, and without --progress the configuration folder's file is read
  // (here the temporary one, where nothing was checked yet).
  const Ran text = run_in(dir, "pack summary " + pack + " --progress " + progress);
  EXPECT_NE(text.out.find("Exercises: 1 of 2 solved, 2 attempted"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("[solved] tile-ranks"), std::string::npos) << text.out;
  const Ran fresh = run_in(dir, "pack summary " + pack + " --json");
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_EQ(nlohmann::json::parse(fresh.out)["counts"]["attempted"], 0);

  // A damaged progress file is named, not taken for an empty one.
  write(progress, "{not json");
  const Ran damaged = run_in(dir, "pack summary " + pack + " --progress " + progress);
  EXPECT_EQ(damaged.exit_code, 2);
  EXPECT_NE(damaged.err.find(progress), std::string::npos) << damaged.err;
  std::filesystem::remove_all(dir);
}

#if COOPVIZ_WITH_GUI
// The pack chooses the lessons: a lesson or trace beside it is a usage error, before any window.
TEST(PackCli, GuiPackRefusesALessonBesideIt) {
  const std::filesystem::path dir = fresh_folder("pack-gui");
  const std::string pack = write(dir / "week.pack", kPackPath);
  const Ran r = run_in(dir, "gui --pack " + pack + " --lesson groups-and-ranks");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give --pack or a lesson, trace or program, not both"), std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}
#endif

TEST(PackCli, AFifoOrADeviceIsRefusedAtOnceWithExit2) {
  const std::filesystem::path dir = fresh_folder("pack-fifo");
  const std::filesystem::path fifo = dir / "class.pack";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo.string(), std::string("/dev/zero")}) {
    const auto start = std::chrono::steady_clock::now();
    const Ran r = coop::testing::run_coopviz("pack check " + path);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_NE(r.err.find("the pack " + path + ": it is a"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(", not a regular file"), std::string::npos) << r.err;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace coop::app
