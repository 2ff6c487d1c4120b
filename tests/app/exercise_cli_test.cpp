// `coopviz exercise list|start|check|hint|solution`: the real binary, its JSON, its usage errors
// (exit 2, one line), a file that does not compile (exit 3, the compiler's words at the
// student's file and line) and kernels that crash or deadlock (failed cases, never a hang).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "tests/app/run_coopviz.hpp"

namespace {
namespace fs = std::filesystem;

// The progress file checks are counted in, for the tests' checks: never the user's own.
std::string test_config_home() {
  static const std::string home = coop::testing::fresh_folder("exercise-cli-config").string();
  return home;
}

coop::testing::Ran coopviz_own_config(const std::string& args) {
  return coop::testing::run_coopviz_env("XDG_CACHE_HOME=" + coop::testing::program_test_cache() +
                                            " XDG_CONFIG_HOME=" + test_config_home(),
                                        args);
}

fs::path scratch_folder(const std::string& name) {
  return coop::testing::fresh_folder("exercise-cli-" + name);
}

std::string solution_text(const std::string& folder, const std::string& id) {
  std::ifstream in(std::string(COOPVIZ_SOURCE_DIR) + "/lessons/" + folder + "/exercises/" + id +
                   "/solution.cu");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A usage error: exit 2 and one line "coopviz: error: ..." containing `words`.
void expect_usage_error(const coop::testing::Ran& r, const std::string& words) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("coopviz: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
}

TEST(ExerciseCli, ListJsonHasIdLessonAndTitle) {
  const coop::testing::Ran r = coopviz_own_config("exercise list --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json list = nlohmann::json::parse(r.out);
  ASSERT_GE(list.size(), 6u);
  bool block_sum = false;
  for (const auto& e : list) {
    EXPECT_TRUE(e.contains("id") && e.contains("lesson") && e.contains("title")) << e.dump();
    if (e["id"] == "block-sum") {
      block_sum = true;
      EXPECT_EQ(e["lesson"], "block-reduce");
    }
  }
  EXPECT_TRUE(block_sum);
  const coop::testing::Ran text = coopviz_own_config("exercise list");
  EXPECT_NE(text.out.find("block-sum  (block-reduce)"), std::string::npos) << text.out;
}

TEST(ExerciseCli, UsageErrorsAreOneLineAndNameWhatIsAllowed) {
  expect_usage_error(coopviz_own_config("exercise hint no-such-one"), "exercises: ");
  expect_usage_error(coopviz_own_config("exercise hint tile-ranks 3"), "hints 1 to 2");
  expect_usage_error(coopviz_own_config("exercise solution block-sum --out /tmp"), "--teacher");
  expect_usage_error(coopviz_own_config("exercise check block-sum /no/such/file.cu"),
                     "/no/such/file.cu");
  expect_usage_error(coopviz_own_config("exercise"), "commands: ");
  expect_usage_error(coopviz_own_config("exercise start block-sum"), "--out");
}

TEST(ExerciseCli, HintShowsTheHintAskedFor) {
  const coop::testing::Ran first = coopviz_own_config("exercise hint block-sum");
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("Hint 1 of 3"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("cg::reduce(tile, value"), std::string::npos) << first.out;
  const coop::testing::Ran third = coopviz_own_config("exercise hint block-sum 3");
  EXPECT_NE(third.out.find("Hint 3 of 3"), std::string::npos) << third.out;
}

TEST(ExerciseCli, StartWritesTheStarterAndKeepsAnExistingFile) {
  const fs::path dir = scratch_folder("start");
  const coop::testing::Ran r =
      coopviz_own_config("exercise start tile-ranks --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::is_regular_file(dir / "starter.cu"));
  std::ofstream(dir / "starter.cu") << "my work\n";
  expect_usage_error(coopviz_own_config("exercise start tile-ranks --out " + dir.string()),
                     "--force");
  std::ifstream kept(dir / "starter.cu");
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "my work");
  EXPECT_EQ(coopviz_own_config("exercise start tile-ranks --force --out " + dir.string()).exit_code,
            0);
  std::ifstream fresh(dir / "starter.cu");
  std::getline(fresh, line);
  EXPECT_NE(line, "my work");
  fs::remove_all(dir);
}

TEST(ExerciseCli, SolutionIsForTeachers) {
  const fs::path dir = scratch_folder("solution");
  const coop::testing::Ran r =
      coopviz_own_config("exercise solution fix-the-race --teacher --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::ifstream(dir / "solution.cu").good(), true);
  fs::remove_all(dir);
}

TEST(ExerciseCli, CheckJsonGivesTheVerdictAndEveryCase) {
  const std::string file = std::string(COOPVIZ_SOURCE_DIR) +
                           "/lessons/tiled_partitions/exercises/tile-ranks/solution.cu";
  const coop::testing::Ran r = coopviz_own_config("exercise check tile-ranks " + file + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "passed");
  ASSERT_GE(j["cases"].size(), 5u);
  std::set<std::string> schedules;
  for (const auto& c : j["cases"]) {
    EXPECT_EQ(c["result"], "passed");
    schedules.insert(c["schedule"].get<std::string>());
    EXPECT_NE(c["launch"].get<std::string>().find("block"), std::string::npos);
  }
  // Every case under lock-step and under the two other legal interleavings.
  EXPECT_EQ(schedules, (std::set<std::string>{"lockstep", "random", "its"}));
}

TEST(ExerciseCli, CheckNamesTheFirstWrongOutputOfAFailingCase) {
  const fs::path dir = scratch_folder("wrong");
  std::string text = solution_text("tiled_partitions", "tile-ranks");
  text.replace(text.find("int(tile.thread_rank())"), 23, "int(tile.thread_rank()) + 1");
  std::ofstream(dir / "mine.cu") << text;
  const coop::testing::Ran r =
      coopviz_own_config("exercise check tile-ranks " + (dir / "mine.cu").string());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("failed: grid 1 x block 64, n 64, input none (lockstep schedule): output 0 "
                       "is 1, want 0"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("tile-ranks: failed (0 of 21 hidden cases passed)"), std::string::npos)
      << r.out;
  // The first failing case points at thread 0's first store that differs from the reference's,
  // and says how to open the trace there.
  EXPECT_NE(r.out.find("first difference from the reference (launch 0, event "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(": thread 0 (block 0) stores"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("see it: coopviz gui --trace "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" --event 0:"), std::string::npos) << r.out;
  // --json: the first failing case has its trace and first_difference, the others neither.
  const coop::testing::Ran j =
      coopviz_own_config("exercise check tile-ranks " + (dir / "mine.cu").string() + " --json");
  EXPECT_EQ(j.exit_code, 1) << j.out << j.err;
  const nlohmann::json report = nlohmann::json::parse(j.out);
  ASSERT_GE(report["cases"].size(), 2u);
  const nlohmann::json& first = report["cases"][0];
  ASSERT_TRUE(first.contains("first_difference")) << first.dump();
  EXPECT_EQ(first["first_difference"]["thread"], 0);
  EXPECT_EQ(first["first_difference"]["block"], 0);
  EXPECT_EQ(first["first_difference"]["launch"], 0);
  EXPECT_GE(first["first_difference"]["event"].get<long>(), 0);
  EXPECT_TRUE(fs::is_regular_file(first["trace"].get<std::string>())) << first.dump();
  EXPECT_FALSE(report["cases"][1].contains("first_difference"));
  EXPECT_FALSE(report["cases"][1].contains("trace"));
  fs::remove_all(dir);
}

TEST(ExerciseCli, ACompileErrorIsShownAtTheStudentsFileAndLine) {
  const fs::path dir = scratch_folder("compile");
  std::string text = solution_text("tiled_partitions", "tile-ranks");
  text.replace(text.find("if (i < n) out[i]"), 17, "if (i < n) out[j]");
  std::ofstream(dir / "mine.cu") << text;
  const coop::testing::Ran r =
      coopviz_own_config("exercise check tile-ranks " + (dir / "mine.cu").string() + " --json");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "failed");
  EXPECT_EQ(j["compiled"], false);
  const std::string said = j["compiler_output"];
  EXPECT_NE(said.find((dir / "mine.cu").string() + ":17:"), std::string::npos) << said;
  EXPECT_NE(said.find("was not declared"), std::string::npos) << said;
  fs::remove_all(dir);
}

// `exercise check ID FILE --json` of `text` written to dir/name: exit 1 and a failed verdict.
nlohmann::json failed_check(const fs::path& dir, const std::string& id, const std::string& name,
                            const std::string& text) {
  std::ofstream(dir / name) << text;
  const coop::testing::Ran r =
      coopviz_own_config("exercise check " + id + " " + (dir / name).string() + " --json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_EQ(j.value("verdict", ""), "failed") << r.out;
  return j.is_discarded() ? nlohmann::json::object() : j;
}

// The problem of the first case that has one, or "".
std::string first_problem(const nlohmann::json& report) {
  for (const auto& c : report.value("cases", nlohmann::json::array()))
    if (!c.value("problem", "").empty()) return c["problem"];
  return "";
}

TEST(ExerciseCli, ACrashOrADeadlockIsAFailedCaseNeverAHang) {
  const fs::path dir = scratch_folder("crash");
  std::string crash = solution_text("tiled_partitions", "tile-ranks");
  crash.replace(crash.find("if (i < n) out[i]"), 17, "if (i == 70) out[-100000000]");
  const nlohmann::json c = failed_check(dir, "tile-ranks", "crash.cu", crash);
  EXPECT_NE(first_problem(c).find("crashed"), std::string::npos) << c.dump(2);

  std::string deadlock = solution_text("synchronization_hazards", "fix-the-race");
  deadlock.replace(deadlock.find("  block.sync();"), 15, "  if (r % 2 == 0) block.sync();");
  const nlohmann::json d = failed_check(dir, "fix-the-race", "deadlock.cu", deadlock);
  EXPECT_FALSE(first_problem(d).empty()) << d.dump(2);
  fs::remove_all(dir);
}

// A deadlock is said in the runtime's words at the student's file and line (never the program
// the check builds, check.cu, nor only "unspecified launch failure"), in full once per check.
TEST(ExerciseCli, ADeadlockNamesTheStudentsLineOnce) {
  const fs::path dir = scratch_folder("deadlock-line");
  std::string text = solution_text("synchronization_hazards", "fix-the-race");
  const size_t sync = text.find("  block.sync();\n");
  ASSERT_NE(sync, std::string::npos);
  text.insert(sync + 16, "  if (r % 2 == 0) block.sync();\n");  // the line after the sync
  const int line = int(std::count(text.begin(), text.begin() + long(sync) + 16, '\n')) + 1;
  const nlohmann::json d = failed_check(dir, "fix-the-race", "stuck.cu", text);
  const std::string at = "sync() at stuck.cu:" + std::to_string(line) + ":";
  size_t full = 0, again = 0;
  for (const auto& c : d.value("cases", nlohmann::json::array())) {
    const std::string p = c.value("problem", "");
    EXPECT_EQ(p.find("check.cu"), std::string::npos) << p;
    EXPECT_EQ(p.find("unspecified launch failure"), std::string::npos) << p;
    if (p.starts_with("kernel reverse_slices: deadlock: no thread can make progress\n")) {
      EXPECT_NE(p.find(at), std::string::npos) << p;
      ++full;
    }
    if (p == "again: kernel reverse_slices: deadlock: no thread can make progress (at stuck.cu:" +
                 std::to_string(line) + ")")
      ++again;
  }
  EXPECT_EQ(full, 1u) << d.dump(2);
  EXPECT_GT(again, 0u) << d.dump(2);
  fs::remove_all(dir);
}

// An output that still holds the emulator's fill of fresh memory (0xa5 in every byte) is said to
// be one no thread wrote, not only shown as -1515870811: the harness's compare, run as a program.
TEST(ExerciseCli, AnOutputNeverWrittenIsSaidSo) {
  const fs::path dir = scratch_folder("never-written");
  std::ofstream(dir / "poison.cu")
      << "#include <cstring>\n#include <vector>\n#include \"exercise_harness.cuh\"\n"
         "int hidden_cases() {\n"
         "  std::vector<int> got(2, 7);\n"
         "  std::memset(&got[1], 0xA5, sizeof(int));\n"
         "  const auto v = coopviz_exercise::compare(got, std::vector<int>{7, 5});\n"
         "  std::printf(\"%ld: %s\\n\", v.index, v.got.c_str());\n"
         "  return 0;\n}\n";
  const coop::testing::Ran r =
      coopviz_own_config("run " + (dir / "poison.cu").string() +
                         " --backend emu -I " COOPVIZ_SOURCE_DIR "/lessons/exercise_harness");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1: -1515870811 (never written: every byte is 0xa5, which fills memory no "
                       "thread wrote)"),
            std::string::npos)
      << r.out << r.err;
  fs::remove_all(dir);
}

// Without `if (i < n)`: a write past the output or a read past the input fails its case at the
// student's line, though no case put a sentinel there (device/emu/memory_checks.hpp).
TEST(ExerciseCli, AnAccessPastNFailsItsCaseNamingTheLine) {
  const fs::path dir = scratch_folder("past-n");
  std::string write = solution_text("tiled_partitions", "tile-ranks");
  write.replace(write.find("if (i < n) out[i]"), 17, "out[i]");
  const std::string wrote = first_problem(failed_check(dir, "tile-ranks", "write.cu", write));
  EXPECT_NE(wrote.find("the program was stopped: thread "), std::string::npos) << wrote;
  EXPECT_NE(wrote.find(" at write.cu:17, past the end of out, a "), std::string::npos) << wrote;

  std::string read = solution_text("block_reduce", "block-sum");
  read.replace(read.find("i < n ? input[i] : 0"), 20, "input[i]");
  const std::string was_read = first_problem(failed_check(dir, "block-sum", "read.cu", read));
  EXPECT_NE(was_read.find(" read 4 bytes at input["), std::string::npos) << was_read;
  EXPECT_NE(was_read.find(" at read.cu:22, past the end of input, a "), std::string::npos)
      << was_read;
  fs::remove_all(dir);
}

// Shared bins nobody zeroed: the first atomicAdd reads memory never written, and the case says
// so at its line rather than only showing a count that is off by 0xa5a5a5a5.
TEST(ExerciseCli, CountingIntoBinsNobodyZeroedFailsAtTheAtomic) {
  const fs::path dir = scratch_folder("unzeroed");
  std::string text = solution_text("atomics_and_races", "block-histogram");
  const std::string zeroing = "for (int b = t; b < kBins; b += blockDim.x) counts[b] = 0;";
  text.replace(text.find(zeroing), zeroing.size(), "// the counters are not zeroed");
  const std::string problem = first_problem(failed_check(dir, "block-histogram", "bins.cu", text));
  EXPECT_NE(problem.find("read of memory never written: thread "), std::string::npos) << problem;
  EXPECT_NE(problem.find(" at counts["), std::string::npos) << problem;
  EXPECT_NE(problem.find("23, in __shared__ counts (64 bytes, declared at line 18)"),
            std::string::npos)
      << problem;
  fs::remove_all(dir);
}

TEST(ExerciseCli, CheckIsCountedInTheProgressFileThatListShows) {
  const fs::path dir = scratch_folder("progress");
  const std::string progress = (dir / "mine" / "progress.json").string();
  const std::string solution = std::string(COOPVIZ_SOURCE_DIR) +
                               "/lessons/tiled_partitions/exercises/tile-ranks/solution.cu";
  const coop::testing::Ran r =
      coopviz_own_config("exercise check tile-ranks " + solution + " --progress " + progress);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const coop::testing::Ran list = coopviz_own_config("exercise list --json --progress " + progress);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  for (const auto& e : nlohmann::json::parse(list.out)) {
    const bool checked = e["id"] == "tile-ranks";
    EXPECT_EQ(e["solved"], checked) << e.dump();
    EXPECT_EQ(e["attempts"], checked ? 1 : 0) << e.dump();
  }
  const coop::testing::Ran text = coopviz_own_config("exercise list --progress " + progress);
  EXPECT_NE(text.out.find("tile-ranks  (tiled-partitions)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("[solved, 1 attempt]"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("[not tried yet]"), std::string::npos) << text.out;
  // Without --progress the check is counted in the configuration folder's progress.json.
  ASSERT_EQ(coopviz_own_config("exercise check tile-ranks " + solution).exit_code, 0);
  EXPECT_TRUE(fs::is_regular_file(fs::path(test_config_home()) / "coopviz" / "progress.json"));
  fs::remove_all(dir);
}

TEST(ExerciseCli, ACheckThatCannotBeRecordedIsAWarningNotAFailure) {
  const fs::path dir = scratch_folder("unrecorded");
  std::ofstream(dir / "blocker") << "a file where a folder should be\n";
  const std::string solution = std::string(COOPVIZ_SOURCE_DIR) +
                               "/lessons/tiled_partitions/exercises/tile-ranks/solution.cu";
  const coop::testing::Ran r =
      coopviz_own_config("exercise check tile-ranks " + solution + " --progress " +
                         (dir / "blocker" / "progress.json").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("tile-ranks: passed"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("coopviz: warning: this check was not recorded"), std::string::npos)
      << r.err;
  fs::remove_all(dir);
}

}  // namespace
