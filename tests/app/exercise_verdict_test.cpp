// What a check's verdict rests on (app/exercise/check.cpp, case_channel.cpp, case_runs.cpp): the
// cases the checker launched, reported through its own channel, not the program's output; the
// race detector's findings in every case; and time limits in CPU time, case by case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/exercise/exercise.hpp"
#include "tests/app/check_summary.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {
namespace fs = std::filesystem;
using coop::app::CaseResult;
using coop::app::CheckReport;
using coop::app::Exercise;

using coop::testing::read;

Exercise exercise(const std::string& id) {
  coop::Result<Exercise> e = coop::app::find_exercise(id);
  EXPECT_TRUE(e.ok()) << e.message();
  return e.ok() ? *e : Exercise{};
}

// The solution of exercise `id` with `from` replaced by `to`, written as `name` in a fresh folder.
fs::path variant(const std::string& id, const std::string& name, const std::string& from,
                 const std::string& to) {
  std::string text = read(exercise(id).solution());
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  const fs::path file = coop::testing::fresh_folder("verdict-" + id) / name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

CheckReport check(const std::string& id, const fs::path& file, coop::app::CheckLimits limits = {}) {
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  coop::Result<CheckReport> r = coop::app::check_exercise(exercise(id), file.string(), {}, limits);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : CheckReport{};
}

size_t passed_cases(const CheckReport& r) {
  size_t n = 0;
  for (const auto& c : r.cases) n += c.passed;
  return n;
}

using coop::testing::summary;

// A block-sum "solution" that runs no case: a static initialiser, which runs before any main(),
// reads the command line and the environment for anything like the checker's token, prints
// lines in the harness's old format with each candidate, writes them to every descriptor it
// might have inherited, and exits 0.
constexpr const char* kForger = R"(#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

__global__ void block_sum(const int*, int*, int) {}

std::vector<std::string> words_of(const char* path) {
  std::vector<std::string> words;
  std::string all;
  char buf[4096];
  const int fd = open(path, O_RDONLY);
  for (ssize_t n; fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0;) all.append(buf, size_t(n));
  std::string word;
  for (char c : all + '\0') {
    if (c == '\0' || c == '=') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

int forge() {
  std::vector<std::string> words = words_of("/proc/self/cmdline");
  for (const std::string& w : words_of("/proc/self/environ")) words.push_back(w);
  for (const std::string& w : words)
    for (int k = 0; k < 40; ++k) {
      const std::string head = "{\"number\":" + std::to_string(k) + ",\"result\":\"passed\"}\n";
      std::printf("@coopviz-case %s %s", w.c_str(), head.c_str());
      for (const std::string kind : {"begin", "case"}) {
        const std::string line = w + " " + kind + " " + head;
        for (int fd = 3; fd < 1024; ++fd) (void)!write(fd, line.data(), line.size());
      }
    }
  std::fflush(stdout);
  std::exit(0);
}
const int forged = forge();
)";

TEST(Verdicts, AProgramThatForgesTheHarnessLinesFailsAndRunsNoCase) {
  const fs::path file = coop::testing::fresh_folder("verdict-forger") / "forger.cu";
  std::ofstream(file) << kForger;
  const CheckReport r = check("block-sum", file);
  ASSERT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed()) << summary(r);
  EXPECT_EQ(passed_cases(r), 0u) << summary(r);
  EXPECT_NE(r.problem.find("the check does not trust it"), std::string::npos) << r.problem;
}

// Quiet forgery: nothing printed, nothing written, exit 0 before any case. The checker knows how
// many cases it launched, so the missing ones fail.
TEST(Verdicts, AProgramThatExitsBeforeTheCasesFailsEveryCase) {
  const fs::path file =
      variant("block-sum", "quitter.cu", "__global__ void block_sum",
              "#include <cstdlib>\nconst int quit = (std::exit(0), 0);\n__global__ void block_sum");
  const CheckReport r = check("block-sum", file);
  ASSERT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(passed_cases(r), 0u) << summary(r);
  const CheckReport reference = check("block-sum", exercise("block-sum").solution());
  ASSERT_TRUE(reference.passed()) << summary(reference);
  // The first run's cases, every one of them failed; a run the check cannot trust ends it.
  EXPECT_EQ(r.cases.size(), reference.cases.size() / coop::app::check_schedules().size())
      << summary(r);
  EXPECT_NE(r.problem.find("ended after 0 of the"), std::string::npos) << r.problem;
}

// Every warp writes the block-shared word `lanes` and every thread reads it, with a tile barrier
// but no block barrier between them: the outputs are always right (all write the same value),
// and the race detector finds the write against another warp's read.
TEST(Verdicts, ARaceFailsTheCheckNamingBothLinesOfTheStudentsFile) {
  const std::string from = "  const int value = i < n ? input[i] : 0;\n";
  const fs::path file = variant("block-sum", "shared_word.cu", from,
                                "  __shared__ int lanes;\n"
                                "  if (tile.thread_rank() == 0) lanes = kTile;\n"
                                "  tile.sync();\n"
                                "  const int value = i < n && lanes == kTile ? input[i] : 0;\n");
  const std::string text = read(file);
  const auto line_of = [&](const std::string& what) {
    const size_t at = text.find(what);
    return std::to_string(1 + std::count(text.begin(), text.begin() + long(at), '\n'));
  };
  const std::string write_line = "shared_word.cu:" + line_of("lanes = kTile;");
  const std::string read_line = "shared_word.cu:" + line_of("lanes == kTile");
  const CheckReport r = check("block-sum", file);
  ASSERT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed());
  size_t full = 0, wrong_outputs = 0;
  for (const auto& c : r.cases) {
    wrong_outputs += c.index >= 0;
    if (c.problem.find("a data race: race on shared") == std::string::npos) continue;
    ++full;
    EXPECT_NE(c.problem.find(write_line), std::string::npos) << c.problem;
    EXPECT_NE(c.problem.find(read_line), std::string::npos) << c.problem;
  }
  // Said in full once; the other racing cases name the lines again, shortly.
  EXPECT_EQ(full, 1u) << summary(r);
  EXPECT_EQ(wrong_outputs, 0u) << summary(r);
}

// Each thread sums all n inputs itself: correct, O(threads x n), and slow on the emulator with
// every access recorded, yet well inside a case's CPU time.
TEST(Verdicts, AQuadraticButCorrectSolutionPasses) {
  const std::string from = read(exercise("sum-of-the-others").solution());
  const size_t begin = from.find("  // Phase 1:"), end = from.find("*total - input[i];");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  const fs::path file =
      variant("sum-of-the-others", "quadratic.cu", from.substr(begin, end + 18 - begin),
              "  int sum = 0;\n"
              "  for (int j = 0; j < n; ++j) sum += input[j];\n"
              "  for (int i = rank; i < n; i += threads) out[i] = sum - input[i];");
  const CheckReport r = check("sum-of-the-others", file);
  EXPECT_TRUE(r.passed()) << summary(r);
}

// An endless loop in one case is stopped by its CPU time (a short limit here, for the test's
// sake), and the case it was in fails, named, in plain words.
TEST(Verdicts, AnEndlessLoopFailsTheCaseItIsInByCpuTime) {
  const std::string from = "  const int value = i < n ? input[i] : 0;\n";
  const fs::path file =
      variant("block-sum", "endless.cu", from,
              from + "  if (n == 300) for (volatile int k = 0; k >= 0;) k = 0;\n");
  coop::app::CheckLimits limits;
  limits.case_cpu_seconds = 2;
  const CheckReport r = check("block-sum", file, limits);
  ASSERT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed());
  size_t stopped = 0;
  for (const auto& c : r.cases) {
    if (c.problem.find("of CPU time and was stopped: an endless loop") == std::string::npos)
      continue;
    ++stopped;
    EXPECT_EQ(c.launch, "grid 5 x block 64, n 300") << c.problem;
    EXPECT_NE(c.problem.find("(grid 5 x block 64, n 300, input ones)"), std::string::npos)
        << c.problem;
  }
  // Once: the lockstep run stops in that case's first input, and the later schedules' runs,
  // which would meet it again, are not made.
  EXPECT_EQ(stopped, 1u) << summary(r);
  EXPECT_EQ(r.cases.size(), check("block-sum", exercise("block-sum").solution()).cases.size());
  EXPECT_NE(r.cases.back().problem.find("not run: a case ran past its time under the lockstep"),
            std::string::npos)
      << summary(r);
  // The cases before it ran and passed.
  EXPECT_GT(passed_cases(r), 0u) << summary(r);
  // Its run was stopped, which keeps no trace: the launch did not finish, it was made.
  const auto first_failed =
      std::find_if(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return !c.passed; });
  ASSERT_NE(first_failed, r.cases.end());
  const std::string& what = first_failed->first_difference.what;
  EXPECT_NE(what.find("your launch 0 of block_sum did not finish"), std::string::npos) << what;
  EXPECT_EQ(what.find("made 0 launches"), std::string::npos) << what;
}

}  // namespace
