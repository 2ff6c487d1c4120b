// What the desktop app remembers between runs: panel sizes, the last lesson and step, and the
// presentation mode. Stored as JSON in $XDG_CONFIG_HOME/coopviz/settings.json (or
// ~/.config/...), written atomically (temporary file, then rename).
#pragma once

#include <string>

#include "device/launch/result.hpp"

namespace coop::app {

// Sizes of the splitter-separated panels, as fractions of the window.
struct LayoutState {
  float left = 0.17f;    // steps and launch column
  float middle = 0.33f;  // step text and code column (the rest is the grid and its tabs)
  float steps = 0.42f;   // left column: the steps above the Launch panel
  float text = 0.45f;    // middle column: step text above the code
  float grid = 0.60f;    // right column: thread grid above the tabs
  friend bool operator==(const LayoutState&, const LayoutState&) = default;
};

struct GuiSettings {
  LayoutState layout;
  std::string export_folder;  // where Export PNG writes ("": the default pictures folder)
  std::string exercise_folder;  // where Start writes exercises ("": ~/coopviz-exercises)
  std::string lesson;  // id of the last lesson shown
  int step = 0;        // its step (0-based)
  bool presentation = false;
  std::string pack;   // the class pack open ("": none)
  int pack_item = 0;  // its item shown (0-based)
  bool questions = true;  // predict-then-run questions are asked (a teacher presenting: off)
  int window_width = 1440, window_height = 900;
  friend bool operator==(const GuiSettings&, const GuiSettings&) = default;
};

// The path of coopviz's file `name` in the user's configuration folder,
// $XDG_CONFIG_HOME/coopviz/ or ~/.config/coopviz/ ("" when neither XDG_CONFIG_HOME nor HOME is
// set).
std::string config_file_path(const std::string& name);
// A window size (first start, or remembered from a larger screen) that fits a screen whose
// usable area (less the desktop's panels) is area_w x area_h: the window's frame and title bar
// are left room, so the play bar at the bottom stays on screen. An unknown area (0) fits anything.
struct WindowSize {
  int width = 0, height = 0;
};
WindowSize fit_window_to_screen(WindowSize wanted, int area_w, int area_h);

// The settings file's path: config_file_path("settings.json").
std::string default_settings_path();
// The desktop's pictures folder: $XDG_PICTURES_DIR, the XDG_PICTURES_DIR line of
// ~/.config/user-dirs.dirs, else ~/Pictures (the working directory without a HOME).
std::string default_pictures_folder();

// Reads settings; a missing file gives the defaults, a damaged one an error naming the problem.
// Values out of range are clamped so a bad file can never hide a panel.
Result<GuiSettings> load_settings(const std::string& path);
Status save_settings(const std::string& path, const GuiSettings& settings);

// Writes one of the app's files beside the settings: its folder made if missing, the file
// replaced atomically (a crash leaves the old file or the new one, never half of one).
Status write_config_file(const std::string& path, const std::string& text);

}  // namespace coop::app
