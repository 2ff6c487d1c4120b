#include "app/exercise/exercise.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "device/launch/trim.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

constexpr size_t kMaxHints = 3;

// The lesson folders with their lessons' ids, in teaching order: every lesson is read from its
// folder and names it.
std::vector<std::pair<fs::path, std::string>> lesson_folders() {
  std::vector<std::pair<fs::path, std::string>> out;
  for (const lessons::LessonDef& l : lessons::registry()) {
    if (!l.folder.empty()) out.emplace_back(l.folder, l.id);
  }
  return out;
}

}  // namespace

Result<std::string> read_whole_file(const fs::path& path, uint64_t limit) {
  return read_user_file(path.string(), limit);
}

Status read_exercise_text(const fs::path& markdown, Exercise& e) {
  Result<std::string> text = read_whole_file(markdown);
  if (!text) return text.status();
  std::istringstream lines(*text);
  std::string line, *section = &e.spec;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (e.title.empty()) {
      if (trim(line).empty()) continue;
      if (!line.starts_with("# "))
        return Status::error(markdown.string() + ":" + std::to_string(number) +
                             ": an exercise starts with its title, a '# ' line");
      e.title = std::string(trim(line.substr(2)));
      continue;
    }
    if (trim(line) == "## Hint") {
      if (e.hints.size() == kMaxHints)
        return Status::error(markdown.string() + ":" + std::to_string(number) + ": more than " +
                             std::to_string(kMaxHints) + " hints");
      e.hints.emplace_back();
      section = &e.hints.back();
      continue;
    }
    *section += line + "\n";
  }
  if (e.title.empty()) return Status::error(markdown.string() + ": no '# ' title line");
  e.spec = std::string(trim(e.spec));
  for (std::string& h : e.hints) h = std::string(trim(h));
  return {};
}

Result<std::vector<Exercise>> find_exercises() {
  std::vector<Exercise> out;
  for (const auto& [folder, lesson] : lesson_folders()) {
    std::error_code ec;
    std::vector<Exercise> here;
    for (const auto& entry : fs::directory_iterator(folder / "exercises", ec)) {
      if (!fs::is_regular_file(entry.path() / "exercise.md", ec)) continue;
      Exercise e;
      e.id = entry.path().filename().string();
      e.lesson = lesson;
      e.folder = entry.path();
      if (Status s = read_exercise_text(entry.path() / "exercise.md", e); !s) return s;
      here.push_back(std::move(e));
    }
    std::sort(here.begin(), here.end(),
              [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
    for (Exercise& e : here) {
      for (const Exercise& earlier : out)
        if (earlier.id == e.id)
          return Status::error("two exercises are named " + e.id + ": in " +
                               earlier.folder.string() + " and " + e.folder.string());
      out.push_back(std::move(e));
    }
  }
  return out;
}

Result<Exercise> find_exercise(const std::string& id) {
  Result<std::vector<Exercise>> all = find_exercises();
  if (!all) return all.status();
  std::string known;
  for (const Exercise& e : *all) {
    if (e.id == id) return e;
    known += (known.empty() ? "" : ", ") + e.id;
  }
  return Status::error("unknown exercise '" + id + "' (exercises: " + known + ")");
}

bool CheckReport::passed() const {
  if (!compiled || !problem.empty() || cases.empty()) return false;
  return std::all_of(cases.begin(), cases.end(), [](const CaseResult& c) { return c.passed; });
}

}  // namespace coop::app
