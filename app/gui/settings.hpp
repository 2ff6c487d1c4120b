// What the desktop app remembers between runs: panel sizes, the last lesson and step, and the
// presentation mode. Stored as JSON in $XDG_CONFIG_HOME/coopviz/settings.json (or
// ~/.config/...), written atomically (temporary file, then rename).
#pragma once

#include <string>

#include "device/launch/result.hpp"

namespace coop::app {

// Sizes of the splitter-separated panels, as fractions of the window.
struct LayoutState {
  float left = 0.205f;    // lessons, steps and launch column
  float middle = 0.37f;   // lesson text and code column
  float lessons = 0.16f;  // left column: the lesson list
  float steps = 0.44f;    // left column: the steps
  float text = 0.42f;     // middle column: lesson text above the code
  float grid = 0.60f;     // right column: thread grid above the tabs
  friend bool operator==(const LayoutState&, const LayoutState&) = default;
};

struct GuiSettings {
  LayoutState layout;
  std::string lesson;  // id of the last lesson shown
  int step = 0;        // its step (0-based)
  bool presentation = false;
  int window_width = 1440, window_height = 900;
  friend bool operator==(const GuiSettings&, const GuiSettings&) = default;
};

// The settings file's path ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string default_settings_path();

// Reads settings; a missing file gives the defaults, a damaged one an error naming the problem.
// Values out of range are clamped so a bad file can never hide a panel.
Result<GuiSettings> load_settings(const std::string& path);
Status save_settings(const std::string& path, const GuiSettings& settings);

}  // namespace coop::app
