#include "app/pack/pack.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/exercise/exercise.hpp"
#include "app/questions/questions.hpp"
#include "device/launch/launch_checks.hpp"
#include "device/launch/trim.hpp"
#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// "name=value" with a whole number, possibly negative; the range is the lesson's to check.
Result<std::pair<std::string, int64_t>> parse_param(const std::string& item) {
  const size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0)
    return Status::error("param '" + item + "' is not of the form NAME=VALUE");
  const std::string_view text = std::string_view(item).substr(eq + 1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return Status::error("param " + item.substr(0, eq) + ": '" + std::string(text) +
                         "' is not a whole number");
  return std::pair(item.substr(0, eq), value);
}

// A lowercase id of letters, digits and dashes, as lessons, exercises and questions are named.
bool is_id(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

class PackParser {
 public:
  explicit PackParser(const std::string& file) { out_.pack.file = file; }

  PackParse parse(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string raw;
    int line = 0;
    while (std::getline(in, raw)) {
      line_ = ++line;
      const std::string_view l = trim(raw);
      if (l.empty() || l.front() == '#') continue;
      parse_line(l);
    }
    if (out_.pack.title.empty())
      error_at(1, "the pack has no title: start it with a line `title: ...`");
    if (out_.pack.items.empty())
      error_at(std::max(line, 1), "the pack lists no lesson, exercise or question");
    return std::move(out_);
  }

 private:
  void error(const std::string& what) { error_at(line_, what); }
  void error_at(int line, const std::string& what) {
    out_.errors.push_back(out_.pack.file + ":" + std::to_string(line) + ": " + what);
  }

  void parse_line(std::string_view l) {
    if (l.starts_with("title:")) {
      if (!out_.pack.title.empty()) return error("the pack has a title already");
      out_.pack.title = std::string(trim(l.substr(6)));
      if (out_.pack.title.empty()) error("the title is empty");
      return;
    }
    if (l.starts_with("note:")) {
      if (out_.pack.items.empty())
        return error("a note belongs under a lesson, exercise or question line");
      std::string& notes = out_.pack.items.back().notes;
      notes += (notes.empty() ? "" : "\n") + std::string(trim(l.substr(5)));
      return;
    }
    const std::vector<std::string> words = words_of(l);
    PackItem item;
    item.line = line_;
    if (words[0] == "lesson") {
      item.kind = PackItemKind::Lesson;
      lesson_item(words, item);
    } else if (words[0] == "exercise") {
      item.kind = PackItemKind::Exercise;
      exercise_item(words, item);
    } else if (words[0] == "question") {
      item.kind = PackItemKind::Question;
      question_item(words, item);
    } else {
      return error("unknown line '" + words[0] +
                   "': a line is title:, lesson, exercise, question or note:");
    }
    // Kept even when wrong, so that a note under it is not taken for the item before.
    out_.pack.items.push_back(std::move(item));
  }

  // lesson ID [step N] [grid X,Y,Z] [block X,Y,Z] [param NAME=VALUE]... [backend B]
  // [schedule S] [seed N]
  void lesson_item(const std::vector<std::string>& words, PackItem& item) {
    if (words.size() < 2) return error("lesson needs a lesson id, e.g. `lesson groups-and-ranks`");
    const lessons::LessonDef* l = lessons::find_lesson(words[1]);
    if (!l)
      return error("unknown lesson '" + words[1] + "': known lessons are " + lessons::lesson_ids());
    item.lesson = l->id;
    const size_t errors_before = out_.errors.size();
    std::map<std::string, int> seen;
    for (size_t i = 2; i < words.size(); i += 2) {
      const std::string& key = words[i];
      if (i + 1 >= words.size()) {
        error(key + " needs a value");
        break;
      }
      const std::string& value = words[i + 1];
      if (key != "param" && seen[key]++ > 0) error(key + " is given twice");
      if (Status s = preset_value(*l, key, value, item); !s) error(s.message());
    }
    if (out_.errors.size() == errors_before) check_launch(*l, item);
  }

  Status preset_value(const lessons::LessonDef& l, const std::string& key, const std::string& value,
                      PackItem& item) {
    LaunchPreset& p = item.preset;
    if (key == "step") {
      if (l.steps.empty() && !l.steps_error.empty())
        return Status::error("lesson " + l.id + " has no steps: its lesson.md has mistakes (" +
                             "`coopviz lesson check` names them), the first " +
                             l.steps_error.substr(0, l.steps_error.find('\n')));
      const std::string range =
          "lesson " + l.id + " has steps 1 to " + std::to_string(l.steps.size());
      Result<uint64_t> n = parse_count(value, "step", 1u << 20);
      if (!n) return Status::error(n.message() + " (" + range + ")");
      if (*n < 1 || *n > l.steps.size()) return Status::error("step " + value + ": " + range);
      item.step = int(*n) - 1;
    } else if (key == "grid" || key == "block") {
      Result<Dim3> d = parse_dim3(value, key);
      if (!d) return d.status();
      (key == "grid" ? p.grid : p.block) = *d;
    } else if (key == "param") {
      Result<std::pair<std::string, int64_t>> v = parse_param(value);
      if (!v) return v.status();
      if (Status s = lessons::check_params(l, {{v->first, v->second}}); !s) return s;
      p.params[v->first] = v->second;
    } else if (key == "backend") {
      Result<BackendRequest> b = parse_backend_request(value, "backend");
      if (!b) return b.status();
      p.backend = *b;
    } else if (key == "schedule") {
      Result<Schedule> s = parse_schedule(value, "schedule");
      if (!s) return s.status();
      p.schedule = *s;
    } else if (key == "seed") {
      Result<uint64_t> n = parse_count(value, "seed", uint64_t(INT64_MAX));
      if (!n) return n.status();
      p.seed = *n;
    } else {
      return Status::error("a lesson line has no '" + key +
                           "': it takes step, grid, block, param, backend, schedule and seed");
    }
    return {};
  }

  // The launch the item runs (the lesson's, the step's, then the preset's) against CUDA's limits
  // on the emulated device and the lesson's own rules, as a run would check it.
  void check_launch(const lessons::LessonDef& l, const PackItem& item) {
    const LaunchPreset& p = item.preset;
    if (!p.grid && !p.block && p.params.empty()) return;
    const lessons::Step* step = l.steps.empty() ? nullptr : &l.steps[size_t(item.step)];
    LaunchConfig config = l.default_config;
    lessons::Params params;
    for (const lessons::ParamDef& d : l.params) params[d.name] = d.default_value;
    if (step) {
      if (step->grid) config.grid = *step->grid;
      if (step->block) config.block = *step->block;
      for (const auto& [name, value] : step->params) params[name] = value;
    }
    if (p.grid) config.grid = *p.grid;
    if (p.block) config.block = *p.block;
    for (const auto& [name, value] : p.params) params[name] = value;
    const DeviceProps& device = default_emulated_device();
    KernelResources any;
    any.max_threads_per_block = device.max_threads_per_block;
    if (Status s = validate_shape(config, device, any); !s) return error(s.message());
    if (l.validate)
      if (Status s = l.validate(config, params); !s)
        error("lesson " + l.id + " cannot run grid " + config.grid.str() + ", block " +
              config.block.str() + ": " + s.message());
  }

  void exercise_item(const std::vector<std::string>& words, PackItem& item) {
    if (words.size() != 2)
      return error("exercise takes one exercise id, e.g. `exercise tile-ranks`");
    Result<Exercise> e = find_exercise(words[1]);
    if (!e) return error(e.message());
    item.exercise = e->id;
    item.lesson = e->lesson;
    item.title = e->title;
  }

  void question_item(const std::vector<std::string>& words, PackItem& item) {
    const std::string form =
        "a question is LESSON-ID/QUESTION-ID, e.g. groups-and-ranks/rank-of-37";
    if (words.size() != 2) return error("question takes one reference: " + form);
    const std::string& ref = words[1];
    const size_t slash = ref.find('/');
    if (slash == std::string::npos || ref.find('/', slash + 1) != std::string::npos)
      return error("question '" + ref + "': " + form);
    const std::string lesson = ref.substr(0, slash), id = ref.substr(slash + 1);
    const lessons::LessonDef* l = lessons::find_lesson(lesson);
    if (!l)
      return error("question '" + ref + "': unknown lesson '" + lesson + "': known lessons are " +
                   lessons::lesson_ids());
    if (!is_id(id))
      return error("question '" + ref + "': the question id '" + id +
                   "' must be lowercase letters, digits and dashes");
    Result<int> step = question_step(l->id, id);
    if (!step) return error("question '" + ref + "': " + step.message());
    item.lesson = l->id;
    item.question = id;
    item.step = *step;
  }

  PackParse out_;
  int line_ = 0;
};

}  // namespace

const char* to_string(PackItemKind kind) {
  switch (kind) {
    case PackItemKind::Lesson:
      return "lesson";
    case PackItemKind::Exercise:
      return "exercise";
    case PackItemKind::Question:
      return "question";
  }
  return "?";
}

std::string PackItem::label() const {
  switch (kind) {
    case PackItemKind::Lesson:
      return "lesson " + lesson + ", step " + std::to_string(step + 1);
    case PackItemKind::Exercise:
      return "exercise " + exercise;
    case PackItemKind::Question:
      return "question " + lesson + "/" + question;
  }
  return "?";
}

PackParse parse_pack(std::string_view text, const std::string& file) {
  return PackParser(file).parse(text);
}

Result<Pack> load_pack(const std::string& path) {
  Result<std::string> text = read_whole_file(path);
  // The reader's words name the file and what is wrong with it ("cannot read PACK: it is a
  // FIFO, not a regular file"): what follows the name, after this one's.
  if (!text) {
    const size_t named = text.message().find(path + ": ");
    return Status::error("the pack " + path + ": " +
                         (named == std::string::npos
                              ? text.message()
                              : text.message().substr(named + path.size() + 2)));
  }
  PackParse parsed = parse_pack(*text, path);
  if (parsed.errors.empty()) return std::move(parsed.pack);
  std::string all;
  for (const std::string& e : parsed.errors) all += (all.empty() ? "" : "\n") + e;
  return Status::error(all);
}

Result<int> question_step(const std::string& lesson, const std::string& question) {
  Result<std::vector<Question>> all = find_questions(lesson);
  if (!all) return all.status();
  std::string known;
  for (const Question& q : *all) {
    if (q.id == question) return q.step - 1;
    known += (known.empty() ? "" : ", ") + q.id;
  }
  return Status::error("no question '" + question + "' in lesson " + lesson +
                       (known.empty() ? " (it has none)" : ": its questions are " + known));
}

PackSummary summarize_pack(const Pack& pack, const ProgressBook& progress) {
  PackSummary s;
  s.title = pack.title;
  for (const PackItem& item : pack.items) {
    if (item.kind == PackItemKind::Lesson) s.lessons.push_back({item.lesson, item.step});
    if (item.kind == PackItemKind::Question) s.questions.push_back({item.lesson, item.question});
    if (item.kind != PackItemKind::Exercise) continue;
    PackSummary::ExerciseRow row{item.exercise, item.lesson, item.title};
    if (auto it = progress.exercises.find(item.exercise); it != progress.exercises.end()) {
      row.attempts = it->second.attempts;
      row.solved = it->second.solved;
    }
    s.solved += row.solved ? 1 : 0;
    s.attempted += row.attempts > 0 ? 1 : 0;
    s.exercises.push_back(std::move(row));
  }
  return s;
}

std::string summary_json(const PackSummary& s) {
  nlohmann::json exercises = nlohmann::json::array(), lessons = nlohmann::json::array(),
                 questions = nlohmann::json::array();
  for (const PackSummary::ExerciseRow& e : s.exercises)
    exercises.push_back({{"id", e.id},
                         {"lesson", e.lesson},
                         {"title", e.title},
                         {"solved", e.solved},
                         {"attempts", e.attempts}});
  for (const PackSummary::LessonRow& l : s.lessons)
    lessons.push_back({{"id", l.id}, {"step", l.step + 1}});
  for (const PackSummary::QuestionRow& q : s.questions)
    questions.push_back({{"lesson", q.lesson}, {"id", q.id}});
  const nlohmann::json j = {{"title", s.title},
                            {"counts",
                             {{"exercises", s.exercises.size()},
                              {"solved", s.solved},
                              {"attempted", s.attempted},
                              {"lessons", s.lessons.size()},
                              {"questions", s.questions.size()}}},
                            {"exercises", exercises},
                            {"lessons", lessons},
                            {"questions", questions}};
  return j.dump(2);
}

}  // namespace coop::app
