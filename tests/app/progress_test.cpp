// The exercise progress file: first run, counting checks, solved stays solved, damaged files.
#include "app/exercise/progress.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace coop::app {
namespace {

namespace fs = std::filesystem;

fs::path temp_folder() {
  return fs::temp_directory_path() / ("coopviz-progress-" + std::to_string(::getpid()));
}

TEST(Progress, ChecksAreCountedAndSolvedStaysSolved) {
  const fs::path dir = temp_folder();
  fs::remove_all(dir);
  const std::string path = (dir / "sub" / "progress.json").string();
  Result<ProgressBook> empty = load_progress(path);
  ASSERT_TRUE(empty.ok()) << "no file yet is an empty book";
  EXPECT_TRUE(empty->exercises.empty());

  ASSERT_TRUE(record_check(path, "block-sum", "/tmp/a.cu", false).ok());
  Result<ExerciseProgress> second = record_check(path, "block-sum", "/tmp/b.cu", true);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(second->attempts, 2);
  EXPECT_TRUE(second->solved);
  Result<ExerciseProgress> third = record_check(path, "block-sum", "/tmp/c.cu", false);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->attempts, 3);
  EXPECT_TRUE(third->solved) << "a later failing check does not take a solution back";
  ASSERT_TRUE(record_check(path, "tile-ranks", "/tmp/t.cu", false).ok());

  Result<ProgressBook> back = load_progress(path);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->exercises.size(), 2u);
  EXPECT_EQ(back->exercises.at("block-sum"), (ExerciseProgress{3, true, "/tmp/c.cu"}));
  EXPECT_EQ(back->exercises.at("tile-ranks"), (ExerciseProgress{1, false, "/tmp/t.cu"}));
  fs::remove_all(dir);
}

TEST(Progress, DamagedFilesAreErrorsThatNameTheFile) {
  const fs::path dir = temp_folder();
  fs::create_directories(dir);
  const std::string path = (dir / "progress.json").string();
  auto expect_refused = [&](const std::string& text, const std::string& words) {
    std::ofstream(path) << text;
    Result<ProgressBook> book = load_progress(path);
    ASSERT_FALSE(book.ok()) << text;
    EXPECT_NE(book.status().message().find(path), std::string::npos) << book.status().message();
    EXPECT_NE(book.status().message().find(words), std::string::npos) << book.status().message();
    EXPECT_FALSE(record_check(path, "block-sum", "x.cu", true).ok())
        << "a damaged book is not overwritten";
  };
  expect_refused("{not json", "not valid JSON");
  expect_refused(R"({"version": 7, "exercises": {}})", "version 7");
  expect_refused(R"({"version": 1})", "no \"exercises\"");
  expect_refused(R"({"version": 1, "exercises": {"block-sum": {"attempts": "two"}}})",
                 "\"block-sum\"");
  // Past int's range: once read as 0 (or as a negative count) through a narrowing read.
  expect_refused(R"({"version": 1, "exercises": {"block-sum": {"attempts": 2147483648,
                 "solved": false}}})",
                 "2147483648 attempts for \"block-sum\", outside 0 to 2147483647");
  expect_refused(R"({"version": 1, "exercises": {"block-sum": {"attempts": 18446744073709551615,
                 "solved": true}}})",
                 "18446744073709551615 attempts");
  expect_refused(R"({"version": 1, "exercises": {"block-sum": {"attempts": -3, "solved": true}}})",
                 "-3 attempts");
  // A FIFO where the book should be is refused at once, not waited on.
  fs::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  Result<ProgressBook> fifo = load_progress(path);
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.status().message().find("a FIFO, not a regular file"), std::string::npos)
      << fifo.status().message();
  fs::remove_all(dir);
}

TEST(Progress, TheLargestCountIsKept) {
  const fs::path dir = temp_folder();
  fs::create_directories(dir);
  const std::string path = (dir / "progress.json").string();
  std::ofstream(path) << R"({"version": 1, "exercises": {"block-sum": {"attempts": 2147483647,
                             "solved": true}}})";
  Result<ProgressBook> book = load_progress(path);
  ASSERT_TRUE(book.ok()) << book.status().message();
  EXPECT_EQ(book->exercises.at("block-sum").attempts, 2147483647);
  Result<ExerciseProgress> again = record_check(path, "block-sum", "x.cu", false);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->attempts, 2147483647) << "a count at the limit stays there, never wraps";
  fs::remove_all(dir);
}

TEST(Progress, LivesBesideTheSettings) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CONFIG_HOME", "/somewhere", 1);
  EXPECT_EQ(default_progress_path(), "/somewhere/coopviz/progress.json");
  if (old)
    ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace coop::app
