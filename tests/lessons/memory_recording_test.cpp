// lesson.json's "records_memory": always, never, or only for some values of one parameter
// (lessons/lesson.hpp, records_memory_in); a rule naming no parameter of the lesson, or values
// outside its range, is refused with the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "lessons/lesson_folder.hpp"

namespace coop::lessons {
namespace {

namespace fs = std::filesystem;

// A lesson folder whose lesson.json says `records_memory` as given.
Result<LessonDef> lesson_recording(const std::string& records_memory) {
  // A folder of this test's own: the tests of this file may run at once (ctest -j), each
  // writing its own lesson.json.
  const fs::path folder = fs::temp_directory_path() /
                          ("coopviz-memory-recording-" +
                           std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())) /
                          "racy";
  fs::create_directories(folder);
  std::ofstream(folder / "racy.cu") << "__global__ void k() {}\nint main() {}\n";
  std::ofstream(folder / "lesson.md") << "# Racy\n\nText.\n";
  std::ofstream(folder / "lesson.json")
      << "{\"id\": \"racy\", \"order\": 5, \"title\": \"Racy\", \"launch\": {\"grid\": [1], "
         "\"block\": [32]}, \"params\": [{\"name\": \"variant\", \"default\": 0, \"min\": 0, "
         "\"max\": 3}], \"records_memory\": "
      << records_memory << "}";
  return read_lesson_folder(folder);
}

TEST(MemoryRecording, OnlyTheVariantsLessonJsonNamesRecordEveryAccess) {
  const Result<LessonDef> some = lesson_recording("{\"variant\": [1, 3]}");
  ASSERT_TRUE(some.ok()) << some.status().message();
  EXPECT_FALSE(records_memory_in(*some, {}));  // the default, 0
  EXPECT_FALSE(records_memory_in(*some, {{"variant", 2}}));
  EXPECT_TRUE(records_memory_in(*some, {{"variant", 1}}));
  EXPECT_TRUE(records_memory_in(*some, {{"variant", 3}}));
  EXPECT_FALSE(some->records_memory) << "not every run: the Memory tab is not the lesson's own";

  const Result<LessonDef> always = lesson_recording("true");
  ASSERT_TRUE(always.ok()) << always.status().message();
  EXPECT_TRUE(records_memory_in(*always, {{"variant", 2}}));
  const Result<LessonDef> never = lesson_recording("false");
  ASSERT_TRUE(never.ok()) << never.status().message();
  EXPECT_FALSE(records_memory_in(*never, {{"variant", 3}}));
}

TEST(MemoryRecording, ARuleOfNoParameterOrValuesOutOfRangeIsRefused) {
  for (const auto& [rule, said] : std::vector<std::pair<std::string, std::string>>{
           {"{\"variants\": [3]}", "\"variants\" is no parameter"},
           {"{\"variant\": [4]}", "must list values of variant from 0 to 3: got 4"},
           {"{\"variant\": []}", "\"records_memory\""},
           {"{\"variant\": [3], \"data\": [1]}", "one parameter of the lesson"},
           {"3", "\"records_memory\""}}) {
    const Result<LessonDef> l = lesson_recording(rule);
    ASSERT_FALSE(l.ok()) << rule;
    EXPECT_NE(l.status().message().find(said), std::string::npos) << rule << ": "
                                                                   << l.status().message();
  }
}

}  // namespace
}  // namespace coop::lessons
