// `coopviz run FILE.cu` says what it did with the command line and the trace: `--` always ends
// coopviz's options (nothing after it is read as one), and a launch that dropped events, or a race
// verdict over such launches, says so in plain output as in --json.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::coopviz;
using coop::testing::program;

TEST(ProgramArguments, ARepeatableOptionBeforeTheDoubleDashLeavesTheProgramItsArguments) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("scale_by_argument.cu") + " -D UNUSED=5 -- 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scaled by 3: PASSED"), std::string::npos) << r.out;
  const coop::testing::Ran i = coopviz("run --backend emu " + program("scale_by_argument.cu") +
                                       " -I " + COOPVIZ_SOURCE_DIR + "/tests -- 4");
  EXPECT_EQ(i.exit_code, 0) << i.err;
  EXPECT_NE(i.out.find("scaled by 4: PASSED"), std::string::npos) << i.out;
}

// As nvcc takes them: each -I and -D takes one value, so the program may follow them
// (`coopviz run -I common -D SIZE=4 prog.cu`).
TEST(ProgramArguments, TheProgramMayFollowItsIncludeAndMacroOptions) {
  const coop::testing::Ran r =
      coopviz("run --backend emu -I " + std::string(COOPVIZ_SOURCE_DIR) +
              "/tests -D UNUSED_SIZE=4096 -D UNUSED " + program("scale_by_argument.cu") + " -- 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scaled by 3: PASSED"), std::string::npos) << r.out << r.err;
}

TEST(ProgramArguments, WhatFollowsTheDoubleDashIsNeverReadAsCoopvizsOption) {
  // -hA=64 would be coopviz's -h; the program reads it (atoi gives 0) and runs.
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("scale_by_argument.cu") + " -- -hA=64");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scaled by 0: PASSED"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Usage"), std::string::npos) << r.out;
  const coop::testing::Ran json =
      coopviz("run --backend emu " + program("scale_by_argument.cu") + " -- --json 5");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("scaled by 0: PASSED"), std::string::npos) << json.out;
  EXPECT_EQ(json.out.find("\"launches\""), std::string::npos) << json.out;
}

TEST(ProgramArguments, ACommandThatRunsNoProgramRefusesThem) {
  const coop::testing::Ran list = coopviz("list -- extra");
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_NE(list.err.find("only `coopviz run FILE.cu -- ARGS`"), std::string::npos) << list.err;
  const coop::testing::Ran lesson = coopviz("run block-reduce --backend emu -- extra");
  EXPECT_EQ(lesson.exit_code, 2);
  EXPECT_NE(lesson.err.find("unexpected argument 'extra'"), std::string::npos) << lesson.err;
}

TEST(DroppedEvents, APlainRunNamesEachLaunchThatDroppedEvents) {
  // Every load and store recorded: 2,000 events, far over 40 slots.
  const std::string run = "run --backend emu --record-memory " + program("scale_by_argument.cu") +
                          " --trace-capacity 40";
  const coop::testing::Ran json = coopviz(run + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json launch = nlohmann::json::parse(json.out)["launches"].at(0);
  const uint64_t events = launch["events"], dropped = launch["dropped"];
  ASSERT_GT(dropped, 0u);
  const coop::testing::Ran plain = coopviz(run);
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  std::smatch said;
  ASSERT_TRUE(std::regex_search(plain.err, said,
                                std::regex("launch 1 \\(kernel scale\\): ([0-9,]+) events "
                                           "recorded, ([0-9,]+) dropped: raise --trace-capacity")))
      << plain.err;
  const auto number = [](std::string text) {
    std::erase(text, ',');
    return std::stoull(text);
  };
  EXPECT_EQ(number(said[1]), events);
  EXPECT_EQ(number(said[2]), dropped);
  // A run that kept everything says nothing of drops.
  const coop::testing::Ran full =
      coopviz("run --backend emu --record-memory " + program("scale_by_argument.cu"));
  EXPECT_EQ(full.err.find("dropped"), std::string::npos) << full.err;
}

TEST(DroppedEvents, ARaceVerdictOverDroppedEventsIsIncomplete) {
  const std::string run = "run --backend emu --races " + program("scale_by_argument.cu");
  const coop::testing::Ran cut = coopviz(run + " --trace-capacity 40");
  EXPECT_NE(cut.out.find("races: incomplete"), std::string::npos) << cut.out;
  EXPECT_EQ(cut.out.find("none found in"), std::string::npos) << cut.out;
  const coop::testing::Ran cut_json = coopviz(run + " --trace-capacity 40 --json");
  EXPECT_FALSE(nlohmann::json::parse(cut_json.out).at("races_complete").get<bool>());
  const coop::testing::Ran whole = coopviz(run);
  EXPECT_NE(whole.out.find("races: none found in 1 launch"), std::string::npos) << whole.out;
  const coop::testing::Ran whole_json = coopviz(run + " --json");
  EXPECT_TRUE(nlohmann::json::parse(whole_json.out).at("races_complete").get<bool>());
}

}  // namespace
