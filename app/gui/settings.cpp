#include "app/gui/settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "device/trace/trace_file.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace {

constexpr int kVersion = 1;

float fraction(const nlohmann::json& j, const char* key, float fallback, float lo, float hi) {
  if (!j.contains(key) || !j[key].is_number()) return fallback;
  return std::clamp(j[key].get<float>(), lo, hi);
}

}  // namespace

std::string config_file_path(const std::string& name) {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::string(xdg) + "/coopviz/" + name;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.config/coopviz/" + name;
  return "";
}

std::string default_settings_path() {
  return config_file_path("settings.json");
}

std::string default_pictures_folder() {
  if (const char* xdg = std::getenv("XDG_PICTURES_DIR"); xdg && *xdg) return xdg;
  const char* home_env = std::getenv("HOME");
  if (!home_env || !*home_env) return ".";
  const std::string home = home_env;
  // xdg-user-dirs writes lines such as XDG_PICTURES_DIR="$HOME/Bilder".
  const char* config = std::getenv("XDG_CONFIG_HOME");
  Result<std::string> text = read_user_file(
      (config && *config ? std::string(config) : home + "/.config") + "/user-dirs.dirs",
      kTextFileLimit);
  std::istringstream dirs(text ? *text : "");
  for (std::string line; std::getline(dirs, line);) {
    if (!line.starts_with("XDG_PICTURES_DIR=")) continue;
    std::string value = line.substr(17);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    if (value.starts_with("$HOME")) value = home + value.substr(5);
    if (!value.empty() && value.front() == '/') return value;
  }
  return home + "/Pictures";
}

Result<GuiSettings> load_settings(const std::string& path) {
  GuiSettings s;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return s;  // first run
  Result<std::string> text = read_user_file(path, kTextFileLimit);
  if (!text) return text.status();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Status::error("settings file " + path + " is not valid JSON; delete it to start afresh");
  if (j.value("version", 0) != kVersion) return s;  // another version's layout: start afresh
  if (j.contains("layout") && j["layout"].is_object()) {
    const nlohmann::json& l = j["layout"];
    LayoutState& d = s.layout;
    d.left = fraction(l, "left", d.left, 0.08f, 0.6f);
    d.middle = fraction(l, "middle", d.middle, 0.1f, 0.7f);
    if (d.left + d.middle > 0.85f) d = LayoutState{};
    d.steps = fraction(l, "steps", d.steps, 0.1f, 0.8f);
    d.text = fraction(l, "text", d.text, 0.05f, 0.95f);
    d.grid = fraction(l, "grid", d.grid, 0.05f, 0.95f);
  }
  if (j.contains("lesson") && j["lesson"].is_string()) s.lesson = j["lesson"].get<std::string>();
  if (j.contains("export_folder") && j["export_folder"].is_string())
    s.export_folder = j["export_folder"].get<std::string>();
  if (j.contains("exercise_folder") && j["exercise_folder"].is_string())
    s.exercise_folder = j["exercise_folder"].get<std::string>();
  if (j.contains("step") && j["step"].is_number_integer())
    s.step = std::max(0, j["step"].get<int>());
  if (j.contains("pack") && j["pack"].is_string()) s.pack = j["pack"].get<std::string>();
  if (j.contains("pack_item") && j["pack_item"].is_number_integer())
    s.pack_item = std::max(0, j["pack_item"].get<int>());
  if (j.contains("presentation") && j["presentation"].is_boolean())
    s.presentation = j["presentation"].get<bool>();
  if (j.contains("questions") && j["questions"].is_boolean())
    s.questions = j["questions"].get<bool>();
  if (j.contains("window") && j["window"].is_array() && j["window"].size() == 2 &&
      j["window"][0].is_number_integer() && j["window"][1].is_number_integer()) {
    s.window_width = std::clamp(j["window"][0].get<int>(), 640, 16384);
    s.window_height = std::clamp(j["window"][1].get<int>(), 400, 16384);
  }
  return s;
}

Status save_settings(const std::string& path, const GuiSettings& s) {
  if (path.empty()) return Status::error("no settings path (set HOME or XDG_CONFIG_HOME)");
  const LayoutState& l = s.layout;
  const nlohmann::json j = {{"version", kVersion},
                            {"layout",
                             {{"left", l.left},
                              {"middle", l.middle},
                              {"steps", l.steps},
                              {"text", l.text},
                              {"grid", l.grid}}},
                            {"lesson", s.lesson},
                            {"export_folder", s.export_folder},
                            {"exercise_folder", s.exercise_folder},
                            {"step", s.step},
                            {"presentation", s.presentation},
                            {"pack", s.pack},
                            {"pack_item", s.pack_item},
                            {"questions", s.questions},
                            {"window", {s.window_width, s.window_height}}};
  return write_config_file(path, j.dump(2) + "\n");
}

Status write_config_file(const std::string& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return Status::error("cannot create the folder for " + path + ": " + ec.message());
  return write_file_atomically(path, text);
}

WindowSize fit_window_to_screen(WindowSize wanted, int area_w, int area_h) {
  constexpr int kFrame = 16, kTitleBar = 48;  // room for a window manager's decorations
  if (area_w > 0) wanted.width = std::min(wanted.width, std::max(320, area_w - kFrame));
  if (area_h > 0) wanted.height = std::min(wanted.height, std::max(240, area_h - kTitleBar));
  return wanted;
}

}  // namespace coop::app
