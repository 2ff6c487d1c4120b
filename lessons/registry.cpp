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

// A lesson author's edited lesson.md, read instead of the built-in copy when
// $COOPVIZ_LESSON_SOURCES names a lessons/ folder (edits show without rebuilding).
std::string_view edited_text(const std::string& folder, std::string_view built_in) {
  static std::deque<std::string> texts;  // the views into them live as long as the registry
  const std::filesystem::path dir = data_dirs().edited_lessons;
  if (dir.empty()) return built_in;
  // A lesson.md that is missing or is no plain text file of sensible size: the built-in copy.
  Result<std::string> text = read_user_file((dir / folder / "lesson.md").string(), kTextFileLimit);
  if (!text) return built_in;
  return texts.emplace_back(std::move(*text));
}

// The lesson its folder's lesson() defines, with the folder's files.
LessonDef define(const LessonEntry& entry) {
  LessonDef l = entry.define();
  l.text = entry.text;
  l.source = entry.source;
  l.source_file = entry.kernel_file;
  return l;
}

// Splits the lesson's Markdown into its text and its steps, and checks the steps' parameters.
void read_steps(LessonDef& l, const std::string& folder) {
  const std::string file = "lessons/" + folder + "/lesson.md";
  l.text = edited_text(folder, l.text);
  Result<LessonMarkdown> md = parse_lesson_markdown(l.text, file);
  if (!md) {
    l.steps_error = md.message();
    return;
  }
  l.text = md->text;
  l.steps = std::move(md->steps);
  for (const Step& s : l.steps) {
    Params p;
    for (const ParamDef& d : l.params) p[d.name] = d.default_value;
    for (const auto& [name, value] : s.params) p[name] = value;
    if (Status st = check_params(l, p); !st) {
      l.steps_error = file + ":" + std::to_string(s.md_line) + ": step '" + s.title + "': " +
                      st.message();
      return;
    }
  }
}

}  // namespace

const std::vector<LessonDef>& registry() {
  static const std::vector<LessonDef> lessons = [] {
    std::vector<LessonDef> v;
    for (const LessonEntry& entry : lesson_entries()) {
      v.push_back(define(entry));
      read_steps(v.back(), entry.folder);
    }
    std::sort(v.begin(), v.end(),
              [](const LessonDef& a, const LessonDef& b) { return a.order < b.order; });
    return v;
  }();
  return lessons;
}

}  // namespace coop::lessons
