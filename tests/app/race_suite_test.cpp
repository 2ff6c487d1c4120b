// `coopviz run --races`: the race suite (tests/races) finds exactly the races its racy kernels
// mark and none in its race-free ones, every test program is race-free but the one that loses
// updates on purpose, and the reports read as documented.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

using LinePair = std::pair<int, int>;  // lower line first

std::string source(const std::string& path) {
  return std::string(COOPVIZ_SOURCE_DIR) + "/" + path;
}

// `coopviz ARGS`, with program builds cached beside the binary (shared by the tests).
using coop::testing::coopviz;

// The races a file marks: per kernel, the pair of lines ending in "// race: KERNEL" (one marked
// line stands for a race between two runs of itself).
std::map<std::string, LinePair> marked_races(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, std::vector<int>> lines;
  const std::regex marker(R"(// race: (\w+)\s*$)");
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    std::smatch m;
    if (std::regex_search(text, m, marker)) lines[m[1]].push_back(line);
  }
  std::map<std::string, LinePair> out;
  for (const auto& [kernel, at] : lines) {
    EXPECT_TRUE(at.size() == 1 || at.size() == 2) << kernel << " marks " << at.size() << " lines";
    out[kernel] = {at.front(), at.back()};
  }
  return out;
}

nlohmann::json races_of(const std::string& file) {
  const coop::testing::Ran r = coopviz("run --backend emu --races --json " + source(file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(out.is_discarded()) << r.out;
  EXPECT_NE(out.value("stdout", std::string()).find("PASSED"), std::string::npos) << r.out;
  return out.is_discarded() ? nlohmann::json::array() : out["races"];
}

LinePair lines_of(const nlohmann::json& race) {
  const int a = race["first"]["line"], b = race["second"]["line"];
  return {std::min(a, b), std::max(a, b)};
}

TEST(RaceSuite, EveryRacyKernelReportsExactlyItsMarkedPairOfLines) {
  const std::map<std::string, LinePair> expected = marked_races(source("tests/races/racy.cu"));
  ASSERT_GE(expected.size(), 10u);
  const nlohmann::json races = races_of("tests/races/racy.cu");
  std::map<std::string, std::set<LinePair>> found;
  for (const nlohmann::json& r : races) found[r["kernel"]].insert(lines_of(r));
  for (const auto& [kernel, pair] : expected)
    EXPECT_EQ(found[kernel], std::set<LinePair>{pair}) << kernel << " (a miss or a false report)";
  for (const auto& [kernel, pairs] : found)
    EXPECT_TRUE(expected.contains(kernel)) << kernel << " races, but marks no race";
}

TEST(RaceSuite, RaceFreeKernelsReportNoRace) {
  const nlohmann::json races = races_of("tests/races/race_free.cu");
  EXPECT_TRUE(races.empty()) << races.dump(2);
}

// What a report holds: the space, the byte, both accesses with their thread, block, line, kind
// and sequence (for the GUI to jump to), and how many byte pairs raced between the two lines.
TEST(RaceSuite, ReportsNameSpaceAddressAndBothAccesses) {
  const nlohmann::json races = races_of("tests/races/racy.cu");
  bool shared = false, global = false, copy = false, atomic = false;
  for (const nlohmann::json& r : races) {
    for (const char* key : {"kernel", "space", "address", "byte_pairs", "first", "second", "text"})
      EXPECT_TRUE(r.contains(key)) << key << " in " << r.dump();
    for (const char* side : {"first", "second"})
      for (const char* key : {"thread", "block", "global_thread", "line", "kind", "sequence"})
        EXPECT_TRUE(r[side].contains(key)) << side << "." << key << " in " << r.dump();
    EXPECT_GT(r["byte_pairs"].get<uint64_t>(), 0u);
    EXPECT_LT(r["first"]["sequence"].get<uint64_t>(), r["second"]["sequence"].get<uint64_t>());
    const std::string space = r["space"];
    shared = shared || space == "shared";
    global = global || space == "global";
    if (space == "shared") {
      EXPECT_TRUE(r.contains("block")) << r.dump();
    }
    copy = copy || r["first"].value("memcpy_async", false);
    atomic = atomic || r["first"]["kind"] == "atomic" || r["second"]["kind"] == "atomic";
  }
  EXPECT_TRUE(shared && global && copy && atomic);
}

// The lost update of every thread on one line is one report counting its many byte pairs.
TEST(RaceSuite, OneReportPerPairOfLinesWithItsCount) {
  const nlohmann::json races = races_of("tests/races/racy.cu");
  size_t reports = 0;
  for (const nlohmann::json& r : races) {
    if (r["kernel"] != "lost_update") continue;
    ++reports;
    EXPECT_GT(r["byte_pairs"].get<uint64_t>(), 4u) << "64 threads race on one 4-byte counter";
  }
  EXPECT_EQ(reports, 1u);
}

// Every test program is race-free, but the one that loses its updates on purpose.
TEST(RaceSuite, TestProgramsRaceOnlyWhereTheyMeanTo) {
  for (const auto& entry : fs::directory_iterator(source("tests/programs"))) {
    if (entry.path().extension() != ".cu") continue;
    const std::string file = "tests/programs/" + entry.path().filename().string();
    EXPECT_TRUE(races_of(file).empty()) << file;
  }
  const coop::testing::Ran r = coopviz("run --backend emu --races --json " +
                                       source("tests/programs/failing/lost_update.cu"));
  const nlohmann::json out = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << r.out << r.err;
  std::set<LinePair> pairs;
  for (const nlohmann::json& race : out["races"]) pairs.insert(lines_of(race));
  // The write races with the other threads' writes and, across blocks, with their reads.
  EXPECT_EQ(pairs, (std::set<LinePair>{{9, 9}, {7, 9}}));
}

// Without --json: one line per race, as a student reads it.
TEST(RaceCli, PlainOutputSaysWhereWhoAndWhy) {
  const coop::testing::Ran r =
      coopviz("run atomics-and-races --backend emu --races --param part=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(
      r.out,
      std::regex(R"(race on shared\[\d+\] of block \(0,0,0\): (read|write) by thread \d+ )"
                 R"(at line \d+, (read|write) by thread \d+ at line \d+ \(no barrier between )"
                 R"(them\))")))
      << r.out;
  const coop::testing::Ran clean = coopviz("run block-reduce --backend emu --races");
  EXPECT_NE(clean.out.find("races: none found in 1 launch"), std::string::npos) << clean.out;
}

TEST(RaceCli, LessonJsonHasRacesOnlyWhenAsked) {
  const coop::testing::Ran with = coopviz("run block-reduce --backend emu --races --json");
  const nlohmann::json a = nlohmann::json::parse(with.out, nullptr, false);
  ASSERT_FALSE(a.is_discarded()) << with.out;
  ASSERT_TRUE(a.contains("races"));
  EXPECT_TRUE(a["races"].empty());
  const coop::testing::Ran without = coopviz("run block-reduce --backend emu --json");
  const nlohmann::json b = nlohmann::json::parse(without.out, nullptr, false);
  EXPECT_FALSE(b.contains("races"));
}

}  // namespace
