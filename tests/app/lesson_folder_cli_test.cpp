// A lesson folder anywhere is a lesson (lessons/lesson_folder.hpp): copied out of the tree and
// changed (its title, a launch default, a step's text), it runs, checks, steps and answers its
// questions by its path, with no rebuild; lesson.json's mistakes are named with their field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "app/program/program.hpp"
#include "lessons/lesson_folder.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::testing {
namespace {

namespace fs = std::filesystem;

using coop::testing::read;

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// block-reduce, copied to `dir` and changed as a teacher would.
fs::path edited_copy(const fs::path& dir) {
  const fs::path copy = dir / "my_reduce";
  fs::copy(fs::path(COOPVIZ_SOURCE_DIR) / "lessons" / "block_reduce", copy,
           fs::copy_options::recursive);
  fs::remove_all(copy / "exercises");
  std::string json = read(copy / "lesson.json");
  json = std::regex_replace(json, std::regex("\"Reducing a block, then the grid\""),
                            "\"My reduction\"");
  json = std::regex_replace(json, std::regex("\"grid\": \\[8\\]"), "\"grid\": [4]");
  write(copy / "lesson.json", json);
  std::string md = read(copy / "lesson.md");
  md = std::regex_replace(md, std::regex("### Every thread gets a rank"),
                          "### Every thread gets a rank of its own");
  write(copy / "lesson.md", md);
  return copy;
}

TEST(LessonFolderCli, AnEditedCopyAnywhereRunsStepsAndChecksByItsPath) {
  const fs::path dir = fresh_folder("lesson-folder");
  const fs::path copy = edited_copy(dir);
  const std::string env = "XDG_CACHE_HOME=" + program_test_cache();

  Ran run = run_coopviz_env(env, "run " + copy.string() + " --backend emu");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("blocks: 4"), std::string::npos) << "the new default grid: " << run.out;
  EXPECT_NE(run.out.find("[pass] block sums equal the CPU tree, bit for bit: expected 4 of 4"),
            std::string::npos)
      << run.out;

  Ran steps = run_coopviz_env(env, "steps " + copy.string() + " --backend emu");
  EXPECT_EQ(steps.exit_code, 0) << steps.out << steps.err;
  EXPECT_NE(steps.out.find("step 1: Every thread gets a rank of its own"), std::string::npos)
      << steps.out;
  EXPECT_NE(steps.out.find("launch panel grid 4 block 256"), std::string::npos) << steps.out;

  Ran check = run_coopviz("lesson check " + copy.string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("5 steps"), std::string::npos) << check.out;

  Ran listed = run_coopviz_env("COOPVIZ_LESSON_PATH=" + dir.string(), "list");
  EXPECT_NE(listed.out.find("My reduction"), std::string::npos)
      << "$COOPVIZ_LESSON_PATH's copy comes first: " << listed.out;
  fs::remove_all(dir);
}

TEST(LessonFolderCli, MistakesInLessonJsonNameTheFieldAndTheRule) {
  const fs::path dir = fresh_folder("lesson-folder-mistakes");
  const fs::path copy = edited_copy(dir);
  const std::string good = read(copy / "lesson.json");
  struct Case {
    std::string from, to, said;
  };
  for (const Case& c : {
           Case{"\"title\"", "\"titel\"", "\"titel\" is not a field of lesson.json here"},
           Case{"\"grid\": [4]", "\"grid\": [0]", "\"launch.grid\" must be a list of 1 to 3"},
           Case{"\"block\": [256]", "\"block\": [96]",
                "needs a power-of-two block of at most 1024 threads: got 96"},
           Case{"\"max\": 1,", "\"max\": -1,", "\"params[0].max\" must be an integer from 0"},
           Case{"\"beginner\"", "\"easy\"", "\"level\" must be \"beginner\""},
           Case{"{", "[", "not a JSON object"},
           Case{"\"launch\"", "\"shown_stores\": [\"sums[0]\"], \"launch\"",
                "\"shown_stores\" holds names: 'sums[0]' is not a buffer's name"},
           Case{"\"launch\"", "\"trace_launches\": \"some\", \"launch\"",
                "\"trace_launches\" must be \"all\" or \"first\": got \"some\""},
           Case{"\"launch\"", "\"shown_loads\": [\"sums on the line with a, b\"], \"launch\"",
                "\"shown_loads\" holds names: 'sums on the line with a, b' holds a comma"},
       }) {
    std::string json = good;
    const size_t at = json.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    write(copy / "lesson.json", json.replace(at, c.from.size(), c.to));
    const Ran r = run_coopviz("run " + copy.string() + " --backend emu");
    EXPECT_EQ(r.exit_code, 2) << c.to;
    EXPECT_NE(r.err.find(c.said), std::string::npos) << c.to << ": " << r.err;
    EXPECT_NE(r.err.find("lesson.json"), std::string::npos) << r.err;
  }
  write(copy / "lesson.json", good);
  fs::copy_file(copy / "block_reduce.cu", copy / "second.cu");
  const Ran two = run_coopviz("run " + copy.string() + " --backend emu");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("holds one CUDA program (<name>.cu): found"), std::string::npos)
      << two.err;
  fs::remove_all(dir);
}

// The fenced block after "`NAME`:" in lessons/README.md's "A lesson from nothing".
std::string readme_block(const std::string& readme, const std::string& name) {
  const size_t section = readme.find("### A lesson from nothing");
  const size_t at = readme.find("`" + name + "`", section);
  if (section == std::string::npos || at == std::string::npos) return "";
  const size_t open = readme.find("```", at);
  const size_t body = readme.find('\n', open) + 1;
  const std::string fence = readme.substr(open, readme.find_first_not_of('`', open) - open);
  const size_t close = readme.find("\n" + fence + "\n", body);
  return close == std::string::npos ? "" : readme.substr(body, close + 1 - body);
}

// lessons/README.md's lesson from nothing, as a teacher would type it: checked, run and stepped.
TEST(LessonFolderCli, TheReadmesLessonFromNothingChecksRunsAndSteps) {
  const std::string readme = read(fs::path(COOPVIZ_SOURCE_DIR) / "lessons" / "README.md");
  const fs::path dir = fresh_folder("hello-ranks") / "hello_ranks";
  fs::create_directories(dir);
  for (const char* name : {"hello_ranks.cu", "lesson.json", "lesson.md"}) {
    const std::string text = readme_block(readme, name);
    ASSERT_FALSE(text.empty()) << name << " is not in lessons/README.md";
    write(dir / name, text);
  }
  const std::string env = "XDG_CACHE_HOME=" + program_test_cache();
  const Ran check = run_coopviz("lesson check " + dir.string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  const Ran run = run_coopviz_env(env, "run " + dir.string() + " --backend emu");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("[pass] every thread's rank is its index within the block"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("[pass] one block group joined per thread: expected 128 group_create"),
            std::string::npos)
      << run.out;
  const Ran steps = run_coopviz_env(env, "steps " + dir.string() + " --backend emu");
  EXPECT_EQ(steps.exit_code, 0) << steps.out << steps.err;
  EXPECT_NE(steps.out.find("hello-ranks step 1: Every thread asks its block"), std::string::npos)
      << steps.out;
  fs::remove_all(dir.parent_path());
}

// A launch the program refuses (its rule, not lesson.json's) is its own `error:` line.
TEST(LessonFolderCli, ALaunchTheProgramRefusesIsItsErrorLine) {
  const Ran r = run_coopviz_env("XDG_CACHE_HOME=" + program_test_cache(),
                                "run block-reduce --backend emu --block 16 --param tiles=1");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("the tile variant needs blocks of at least 32 threads: got 16"),
            std::string::npos)
      << r.out << r.err;
}

}  // namespace
}  // namespace coop::testing
