#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "device/paths/data_dirs.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_folder.hpp"

namespace coop::lessons {
namespace {

// The lessons found so far, and the folders named on the command line.
struct Found {
  std::mutex lock;
  bool built = false;
  std::vector<LessonDef> lessons;
  std::vector<LessonDef> named;  // add_lesson_folder's, first named first
};

Found& found() {
  static Found f;
  return f;
}

// Every lesson in the order lesson_folder.hpp states, the first of each id kept, in teaching order.
std::vector<LessonDef> find_all(const std::vector<LessonDef>& named) {
  std::vector<LessonDef> v;
  auto add = [&v](LessonDef l) {
    for (const LessonDef& have : v)
      if (have.id == l.id) return;
    v.push_back(std::move(l));
  };
  // A shipped or $COOPVIZ_LESSON_PATH folder that cannot be read is left out, and said once.
  auto add_folders = [&add](const std::filesystem::path& dir) {
    for (const std::filesystem::path& folder : lesson_folders_in(dir)) {
      Result<LessonDef> l = read_lesson_folder(folder);
      if (l)
        add(std::move(*l));
      else
        std::fprintf(stderr, "coopviz: %s (lesson left out)\n", l.message().c_str());
    }
  };
  for (const LessonDef& l : named) add(l);
  for (const std::filesystem::path& dir : lesson_search_path()) add_folders(dir);
  if (const std::filesystem::path shipped = data_dirs().lessons; !shipped.empty())
    add_folders(shipped);
  std::stable_sort(v.begin(), v.end(),
                   [](const LessonDef& a, const LessonDef& b) { return a.order < b.order; });
  return v;
}

}  // namespace

const std::vector<LessonDef>& registry() {
  Found& f = found();
  std::lock_guard hold(f.lock);
  if (!f.built) {
    f.lessons = find_all(f.named);
    f.built = true;
  }
  return f.lessons;
}

std::vector<std::filesystem::path> lesson_search_path() {
  std::vector<std::filesystem::path> path;
  const char* env = std::getenv("COOPVIZ_LESSON_PATH");
  std::string_view rest = env ? env : "";
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    if (colon != 0) path.emplace_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return path;
}

Result<std::string> add_lesson_folder(const std::filesystem::path& folder) {
  Result<LessonDef> l = read_lesson_folder(folder);
  if (!l) return l.status();
  const std::string id = l->id;
  Found& f = found();
  std::lock_guard hold(f.lock);
  f.named.insert(f.named.begin(), std::move(*l));
  if (f.built) f.lessons = find_all(f.named);
  return id;
}

}  // namespace coop::lessons
