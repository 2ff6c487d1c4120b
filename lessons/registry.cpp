#include <algorithm>
#include <deque>
#include <fstream>
#include <sstream>

#include "device/paths/data_dirs.hpp"
#include "device/trace/user_file.hpp"
#include "lessons/lesson.hpp"
#include "lessons/registry_entries.hpp"

namespace coop::lessons {
namespace {

// The lesson.md a lesson is read from, and its name in messages: a lesson author's edited copy
// where $COOPVIZ_LESSON_SOURCES names a lessons/ folder that holds one (edits show without
// rebuilding), else the built-in copy, named as in the source tree.
std::pair<std::string_view, std::string> lesson_markdown(const std::string& folder,
                                                         std::string_view built_in) {
  static std::deque<std::string> texts;  // the views into them live as long as the registry
  const std::string tree_name = "lessons/" + folder + "/lesson.md";
  const std::filesystem::path dir = data_dirs().edited_lessons;
  if (dir.empty()) return {built_in, tree_name};
  // A lesson.md that is missing or is no plain text file of sensible size: the built-in copy.
  const std::string path = (dir / folder / "lesson.md").string();
  Result<std::string> text = read_user_file(path, kTextFileLimit);
  if (!text) return {built_in, tree_name};
  return {texts.emplace_back(std::move(*text)), path};
}

// The lesson its folder's lesson() defines, with the folder's files.
LessonDef define(const LessonEntry& entry) {
  LessonDef l = entry.define();
  l.text = entry.text;
  l.source = entry.source;
  l.source_file = entry.kernel_file;
  return l;
}

}  // namespace

const std::vector<LessonDef>& registry() {
  static const std::vector<LessonDef> lessons = [] {
    std::vector<LessonDef> v;
    for (const LessonEntry& entry : lesson_entries()) {
      v.push_back(define(entry));
      const auto [markdown, file] = lesson_markdown(entry.folder, v.back().text);
      read_lesson_markdown(v.back(), markdown, file);
    }
    std::sort(v.begin(), v.end(),
              [](const LessonDef& a, const LessonDef& b) { return a.order < b.order; });
    return v;
  }();
  return lessons;
}

}  // namespace coop::lessons
