#include "app/gui/pack_navigator.hpp"

#include <algorithm>
#include <filesystem>

#include "app/gui/gui_app.hpp"
#include "lessons/lesson.hpp"
#include "visual/field_text.hpp"

namespace coop::app {
namespace {

void select_lesson_id(GuiApp& app, const std::string& id, double now) {
  if (const lessons::LessonDef* l = lessons::find_lesson(id))
    app.select_lesson(int(l - lessons::registry().data()), now);
}

// The one place a pack opens an exercise. Until the window has an Exercise tab, the exercise's
// lesson is shown with the exercise named in the notice line.
void open_exercise_item(GuiApp& app, const PackItem& item, double now) {
  if (Status s = app.open_exercise(item.exercise, now); !s) app.say(s.message(), true);
}

// The lesson at its step, then the preset on top, each value typed into the Launch panel as a
// user would, so that the panel shows it and Defaults takes it back.
void open_lesson_at(GuiApp& app, const PackItem& item, const LaunchPreset& p, double now) {
  select_lesson_id(app, item.lesson, now);
  if (item.step > 0) app.select_step(item.step, now);
  std::vector<std::pair<std::string, std::string>> typed;
  if (p.grid) typed.push_back({"grid", visual::dims_text(*p.grid)});
  if (p.block) typed.push_back({"block", visual::dims_text(*p.block)});
  for (const auto& [name, value] : p.params)
    typed.push_back({"param:" + name, std::to_string(value)});
  for (const auto& [field, text] : typed)
    // Checked when the pack was read; a refusal here is a limit of this machine's device.
    if (Status s = app.type_into(field, text, now); !s)
      return app.say(
          item.label() + ": the pack's " + field + " " + text + " is refused: " + s.message(),
          true);
  if (!typed.empty()) app.run_due = now;  // one deliberate click: run now
}

// The preset item `index` runs with: a lesson item's own, and the same for the questions and
// exercises of that lesson that follow it (the room answers on the run it was shown: the
// teacher's grid, schedule and seed); null for any other item.
const LaunchPreset* leading_preset(const Pack& pack, size_t index) {
  const std::string& lesson = pack.items[index].lesson;
  for (size_t i = index + 1; i-- > 0 && pack.items[i].lesson == lesson;)
    if (pack.items[i].kind == PackItemKind::Lesson) return &pack.items[i].preset;
  return nullptr;
}

}  // namespace

Status open_pack(GuiApp& app, const std::string& path, int index, bool go, double now) {
  Result<Pack> pack = load_pack(path);
  if (!pack) return pack.status();
  PackNavigator& nav = app.pack;
  if (!nav.pack) nav.before = {app.backend, app.schedule, app.seed};
  nav.pack = std::move(*pack);
  // Remembered whole, so that the pack comes back whichever folder the app is started from.
  std::error_code ec;
  const std::filesystem::path whole = std::filesystem::absolute(path, ec);
  nav.path = ec ? path : whole.lexically_normal().string();
  nav.current = -1;
  const int last = int(nav.pack->items.size()) - 1;
  const int at = std::clamp(index, 0, last);
  if (go)
    go_to_pack_item(app, at, now);
  else
    nav.current = at;
  return {};
}

void close_pack(GuiApp& app) {
  PackNavigator& nav = app.pack;
  if (!nav.pack) return;
  app.backend = nav.before.backend;
  app.schedule = nav.before.schedule;
  app.seed = nav.before.seed;
  app.questions.required.clear();
  nav = PackNavigator{};
}

void go_to_pack_item(GuiApp& app, int index, double now) {
  PackNavigator& nav = app.pack;
  if (!nav.pack || index < 0 || size_t(index) >= nav.pack->items.size()) return;
  nav.current = index;
  const PackItem& item = nav.pack->items[size_t(index)];
  static const LaunchPreset kNone;
  const LaunchPreset* leading = leading_preset(*nav.pack, size_t(index));
  const LaunchPreset& preset = leading ? *leading : kNone;
  // Set before the lesson is selected, so that its first run already has them.
  app.backend = preset.backend.value_or(nav.before.backend);
  app.schedule = preset.schedule.value_or(nav.before.schedule);
  app.seed = preset.seed.value_or(nav.before.seed);
  // The teacher put the question there: it is asked whatever the Questions switch says.
  app.questions.required =
      item.kind == PackItemKind::Question ? question_key(item.lesson, item.question) : "";
  app.say("");
  if (item.kind == PackItemKind::Exercise)
    open_exercise_item(app, item, now);
  else
    open_lesson_at(app, item, preset, now);
}

void step_pack(GuiApp& app, int delta, double now) {
  go_to_pack_item(app, app.pack.current + delta, now);
}

Result<PackSummary> open_pack_summary(const GuiApp& app) {
  const PackNavigator& nav = app.pack;
  if (!nav.pack) return Status::error("no class pack is open");
  const std::string path = nav.progress_path.empty() ? default_progress_path() : nav.progress_path;
  Result<ProgressBook> book = path.empty() ? ProgressBook{} : load_progress(path);
  if (!book) return book.status();
  return summarize_pack(*nav.pack, *book);
}

Status run_pack_command(GuiApp& app, const std::vector<std::string>& args, double now) {
  const std::string& what = args.at(0);
  const bool one = args.size() == 1;
  if (what == "close" && one) {
    close_pack(app);
  } else if (what == "summary" && one) {
    if (!app.pack.pack) return Status::error("pack summary: no class pack is open");
    app.pack.show_summary = true;
  } else if ((what == "next" || what == "prev") && one) {
    if (!app.pack.pack) return Status::error("pack " + what + ": no class pack is open");
    step_pack(app, what == "next" ? 1 : -1, now);
  } else if (what == "item" && args.size() == 2) {
    if (!app.pack.pack) return Status::error("pack item: no class pack is open");
    const int64_t count = int64_t(app.pack.pack->items.size());
    Result<int64_t> n = visual::parse_whole(args[1], "pack item", 1, count);
    if (!n) return n.status();
    go_to_pack_item(app, int(*n - 1), now);
  } else if (one) {
    return open_pack(app, what, 0, true, now);
  } else {
    return Status::error("pack takes FILE, next, prev, item N, summary or close");
  }
  return {};
}

}  // namespace coop::app
