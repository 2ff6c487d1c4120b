// The desktop app's settings file: round trip, first run, damaged files and clamped values.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/gui/settings.hpp"

namespace coop::app {
namespace {

std::string settings_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          ("coopviz-settings-" + std::to_string(::getpid()) + name))
      .string();
}

TEST(Settings, RoundTripAndFirstRun) {
  const std::string path = settings_path("/sub/settings.json");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
  Result<GuiSettings> first = load_settings(path);
  ASSERT_TRUE(first.ok()) << "a missing file is a first run, not an error";
  EXPECT_TRUE(first->lesson.empty());
  GuiSettings s;
  s.lesson = "block-reduce";
  s.step = 3;
  s.presentation = true;
  s.layout.left = 0.3f;
  s.window_width = 1600;
  s.exercise_folder = "/home/student/cuda";
  ASSERT_TRUE(save_settings(path, s).ok()) << "creates the folder too";
  Result<GuiSettings> back = load_settings(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->lesson, "block-reduce");
  EXPECT_EQ(back->step, 3);
  EXPECT_TRUE(back->presentation);
  EXPECT_FLOAT_EQ(back->layout.left, 0.3f);
  EXPECT_EQ(back->window_width, 1600);
  EXPECT_EQ(back->exercise_folder, "/home/student/cuda");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST(Settings, DamagedFilesAreErrorsAndWildValuesAreClamped) {
  const std::string path = settings_path("-bad.json");
  std::ofstream(path) << "{ not json";
  Result<GuiSettings> bad = load_settings(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("not valid JSON"), std::string::npos);
  std::ofstream(path) << R"({"version": 1, "layout": {"left": 5, "grid": -1}, "step": -4,
                            "window": [10, 99999]})";
  Result<GuiSettings> wild = load_settings(path);
  ASSERT_TRUE(wild.ok());
  EXPECT_LE(wild->layout.left, 0.6f);
  EXPECT_GE(wild->layout.grid, 0.05f);
  EXPECT_EQ(wild->step, 0);
  EXPECT_EQ(wild->window_width, 640);
  EXPECT_EQ(wild->window_height, 16384);
  std::filesystem::remove(path);
}

// A file as earlier builds wrote it loads with every value it holds; keys this build does not
// know (a later build's, or one it no longer writes) are passed over, not refused.
TEST(Settings, AFileFromAnEarlierBuildStillLoads) {
  const std::string path = settings_path("-earlier.json");
  std::ofstream(path) << R"({
  "export_folder": "/home/student/Pictures/coopviz",
  "layout": {"grid": 0.55, "left": 0.2, "middle": 0.3, "steps": 0.4, "text": 0.5},
  "lesson": "grid-sync",
  "presentation": false,
  "step": 2,
  "version": 1,
  "window": [1600, 1000],
  "backend": "emu"
})";
  Result<GuiSettings> s = load_settings(path);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->export_folder, "/home/student/Pictures/coopviz");
  EXPECT_FLOAT_EQ(s->layout.grid, 0.55f);
  EXPECT_FLOAT_EQ(s->layout.left, 0.2f);
  EXPECT_FLOAT_EQ(s->layout.middle, 0.3f);
  EXPECT_FLOAT_EQ(s->layout.steps, 0.4f);
  EXPECT_FLOAT_EQ(s->layout.text, 0.5f);
  EXPECT_EQ(s->lesson, "grid-sync");
  EXPECT_FALSE(s->presentation);
  EXPECT_EQ(s->step, 2);
  EXPECT_EQ(s->window_width, 1600);
  EXPECT_EQ(s->window_height, 1000);
  std::filesystem::remove(path);
}

TEST(Settings, TheWindowFitsTheScreenItOpensOn) {
  // The first start's 1440x900 on a 1280x800 laptop, and 1280x720 with a 28-pixel panel.
  const WindowSize laptop = fit_window_to_screen({1440, 900}, 1280, 800);
  EXPECT_LE(laptop.width, 1280);
  EXPECT_LE(laptop.height, 800 - 40);
  const WindowSize projector = fit_window_to_screen({1440, 900}, 1280, 692);
  EXPECT_LE(projector.height, 692 - 40);
  EXPECT_GE(projector.height, 600);
  // A size that fits is kept; an unknown screen keeps it too.
  EXPECT_EQ(fit_window_to_screen({1024, 700}, 1920, 1080).width, 1024);
  EXPECT_EQ(fit_window_to_screen({1024, 700}, 1920, 1080).height, 700);
  EXPECT_EQ(fit_window_to_screen({1440, 900}, 0, 0).height, 900);
}

}  // namespace
}  // namespace coop::app
