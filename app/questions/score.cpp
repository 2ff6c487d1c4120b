#include "app/questions/score.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/gui/settings.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace {

constexpr int kVersion = 1;

std::string key_of(const Question& q) {
  return q.lesson + "/" + q.id;
}

}  // namespace

void record_answer(QuestionScore& score, const Question& q, bool right) {
  ++score.asked;
  if (right) ++score.right;
  score.latest[key_of(q)] = right;
}

std::string score_path_beside(const std::string& settings_path) {
  if (settings_path.empty()) return "";
  return (std::filesystem::path(settings_path).parent_path() / "questions.json").string();
}

Result<QuestionScore> load_score(const std::string& path) {
  QuestionScore s;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return s;  // nothing answered yet
  Result<std::string> text = read_user_file(path, kTextFileLimit);
  if (!text) return text.status();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  auto damaged = [&](const std::string& what) {
    return Status::error("question score file " + path + " " + what +
                         "; delete it to start the score afresh");
  };
  if (j.is_discarded() || !j.is_object()) return damaged("is not valid JSON");
  if (!j.contains("version") || j["version"] != kVersion)
    return damaged("is not version " + std::to_string(kVersion));
  for (const char* key : {"right", "asked"})
    if (!j.contains(key) || !j[key].is_number_unsigned())
      return damaged(std::string("lacks \"") + key + "\", a count from 0");
  s.right = j["right"].get<uint64_t>();
  s.asked = j["asked"].get<uint64_t>();
  if (s.right > s.asked)
    return damaged("says " + std::to_string(s.right) + " right of " + std::to_string(s.asked) +
                   " asked");
  if (j.contains("latest")) {
    if (!j["latest"].is_object()) return damaged("has \"latest\" that is not an object");
    for (const auto& [key, value] : j["latest"].items()) {
      if (!value.is_boolean())
        return damaged("has \"latest\"." + key + " that is not true or false");
      s.latest[key] = value.get<bool>();
    }
  }
  return s;
}

Status save_score(const std::string& path, const QuestionScore& score) {
  nlohmann::json j = {{"version", kVersion},
                      {"right", score.right},
                      {"asked", score.asked},
                      {"latest", score.latest}};
  if (path.empty()) return Status::error("no score path (set HOME or XDG_CONFIG_HOME)");
  return write_config_file(path, j.dump(2) + "\n");
}

}  // namespace coop::app
