#include "lessons/lesson_folder.hpp"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>

#include "device/paths/data_dirs.hpp"
#include "device/trace/user_file.hpp"
#include "lessons/lesson_checks.hpp"

namespace coop::lessons {
namespace fs = std::filesystem;
using json = nlohmann::json;
namespace {

// Texts the lessons keep views into (LessonDef::text and source): they live as long as coopviz.
std::string_view keep(std::string text) {
  static std::deque<std::string> kept;
  return kept.emplace_back(std::move(text));
}

// lesson.json's fields, read with errors that name the file, the field and what it must be.
class Fields {
 public:
  Fields(std::string file) : file_(std::move(file)) {}

  Status wrong(const std::string& field, const std::string& what) const {
    return Status::error(file_ + ": \"" + field + "\" " + what);
  }
  // Only the fields a lesson.json may have, so a misspelt one is not passed over.
  Status only(const json& object, const std::string& where,
              std::initializer_list<const char*> known) const {
    for (const auto& [key, value] : object.items()) {
      bool ok = false;
      std::string names;
      for (const char* k : known) {
        ok = ok || key == k;
        names += std::string(names.empty() ? "" : ", ") + k;
      }
      if (!ok) return wrong(where + key, "is not a field of lesson.json here (known: " + names + ")");
    }
    return {};
  }
  Result<std::string> text(const json& o, const std::string& key, const std::string& where,
                           bool required) const {
    if (!o.contains(key)) {
      if (required) return wrong(where + key, "is missing");
      return std::string();
    }
    if (!o[key].is_string()) return wrong(where + key, "must be a string");
    return o[key].get<std::string>();
  }
  Result<int64_t> integer(const json& o, const std::string& key, const std::string& where,
                          int64_t fallback, int64_t min, int64_t max) const {
    if (!o.contains(key)) return fallback;
    if (!o[key].is_number_integer() || o[key].get<int64_t>() < min || o[key].get<int64_t>() > max)
      return wrong(where + key, "must be an integer from " + std::to_string(min) + " to " +
                                    std::to_string(max));
    return o[key].get<int64_t>();
  }
  Result<bool> flag(const json& o, const std::string& key, const std::string& where,
                    bool fallback) const {
    if (!o.contains(key)) return fallback;
    if (!o[key].is_boolean()) return wrong(where + key, "must be true or false");
    return o[key].get<bool>();
  }
  Result<std::vector<std::string>> texts(const json& o, const std::string& key,
                                         const std::string& where) const {
    std::vector<std::string> v;
    if (!o.contains(key)) return v;
    if (!o[key].is_array()) return wrong(where + key, "must be a list of strings");
    for (const json& item : o[key]) {
      if (!item.is_string()) return wrong(where + key, "must be a list of strings");
      v.push_back(item.get<std::string>());
    }
    return v;
  }
  Result<Dim3> dims(const json& o, const std::string& key, const std::string& where,
                    Dim3 fallback) const {
    if (!o.contains(key)) return fallback;
    const json& a = o[key];
    const Status bad = wrong(where + key, "must be a list of 1 to 3 integers from 1 to 2147483647");
    if (!a.is_array() || a.empty() || a.size() > 3) return bad;
    uint32_t d[3] = {1, 1, 1};
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_number_integer() || a[i].get<int64_t>() < 1 || a[i].get<int64_t>() > INT32_MAX)
        return bad;
      d[i] = uint32_t(a[i].get<int64_t>());
    }
    return Dim3{d[0], d[1], d[2]};
  }

 private:
  std::string file_;
};

#define COOP_TAKE(var, expr)        \
  auto var##_read = (expr);         \
  if (!var##_read) return var##_read.status(); \
  auto var = *var##_read

// The launch rules lesson.json states, as a lesson's validate().
struct LaunchRules {
  bool one_dimensional = false, block_power_of_two = false;
  int64_t block_min = 1, block_max = 1024, block_multiple = 1, grid_max = INT32_MAX;
  int64_t threads_max = INT64_MAX;  // in the whole launch
};

Status check_rules(const LaunchRules& r, const std::string& id, const LaunchConfig& c) {
  if (r.one_dimensional)
    if (Status s = require_1d_launch(c, id); !s) return s;
  const uint64_t block = c.threads_per_block(), grid = c.grid.count();
  if (r.block_power_of_two && (block & (block - 1)) != 0)
    return Status::error(id + " needs a power-of-two block of at most " +
                         std::to_string(r.block_max) + " threads: got " + std::to_string(block));
  if (int64_t(block) < r.block_min || int64_t(block) > r.block_max)
    return Status::error(id + " needs blocks of " + std::to_string(r.block_min) + " to " +
                         std::to_string(r.block_max) + " threads: got " + std::to_string(block));
  if (int64_t(block) % r.block_multiple != 0)
    return Status::error(id + " needs blocks of a multiple of " + std::to_string(r.block_multiple) +
                         " threads: got " + std::to_string(block));
  if (int64_t(grid) > r.grid_max)
    return Status::error(id + " allows at most " + std::to_string(r.grid_max) +
                         " blocks: got " + std::to_string(grid));
  if (int64_t(c.total_threads()) > r.threads_max)
    return Status::error(id + " allows at most " + std::to_string(r.threads_max) +
                         " threads in all: got " + std::to_string(c.total_threads()));
  return {};
}

Result<LaunchConfig> read_launch(const Fields& f, const json& j) {
  LaunchConfig c;
  if (!j.contains("launch")) return f.wrong("launch", "is missing (the default grid and block)");
  const json& l = j["launch"];
  if (!l.is_object()) return f.wrong("launch", "must be an object");
  if (Status s = f.only(l, "launch.", {"grid", "block", "mode", "cluster", "shared_bytes",
                                       "derived"});
      !s)
    return s;
  COOP_TAKE(grid, f.dims(l, "grid", "launch.", Dim3{}));
  COOP_TAKE(block, f.dims(l, "block", "launch.", Dim3{256, 1, 1}));
  COOP_TAKE(cluster, f.dims(l, "cluster", "launch.", Dim3{}));
  COOP_TAKE(mode, f.text(l, "mode", "launch.", false));
  COOP_TAKE(shared, f.integer(l, "shared_bytes", "launch.", 0, 0, 1 << 30));
  c.grid = grid;
  c.block = block;
  c.cluster = cluster;
  c.dynamic_smem = uint32_t(shared);
  if (mode == "" || mode == "normal") c.mode = LaunchMode::Normal;
  else if (mode == "cooperative") c.mode = LaunchMode::Cooperative;
  else if (mode == "cluster") c.mode = LaunchMode::Cluster;
  else return f.wrong("launch.mode", "must be \"normal\", \"cooperative\" or \"cluster\": got \"" + mode + "\"");
  return c;
}

Result<std::vector<ParamDef>> read_params(const Fields& f, const json& j) {
  std::vector<ParamDef> params;
  if (!j.contains("params")) return params;
  if (!j["params"].is_array()) return f.wrong("params", "must be a list of parameters");
  for (size_t i = 0; i < j["params"].size(); ++i) {
    const json& p = j["params"][i];
    const std::string at = "params[" + std::to_string(i) + "].";
    if (!p.is_object()) return f.wrong(at.substr(0, at.size() - 1), "must be an object");
    if (Status s = f.only(p, at, {"name", "default", "min", "max", "help", "power_of_two"}); !s)
      return s;
    ParamDef d;
    COOP_TAKE(name, f.text(p, "name", at, true));
    COOP_TAKE(min, f.integer(p, "min", at, 0, INT64_MIN, INT64_MAX));
    COOP_TAKE(max, f.integer(p, "max", at, min, min, INT64_MAX));
    COOP_TAKE(value, f.integer(p, "default", at, min, min, max));
    COOP_TAKE(help, f.text(p, "help", at, false));
    COOP_TAKE(pow2, f.flag(p, "power_of_two", at, false));
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") !=
                            std::string::npos)
      return f.wrong(at + "name", "must be lower-case letters, digits and _: got \"" + name + "\"");
    d.name = name;
    d.min = min;
    d.max = max;
    d.default_value = value;
    d.help = help;
    d.power_of_two = pow2;
    params.push_back(std::move(d));
  }
  return params;
}

// "records_memory": {"PARAM": [VALUES]}: one parameter of the lesson and some of its values.
Result<std::optional<LessonDef::MemoryRecordingWhen>> read_recording_when(
    const Fields& f, const json& when, const std::vector<ParamDef>& params) {
  const char* rule =
      "must be true, false, or {\"PARAM\": [VALUES]}: one parameter of the lesson and the values "
      "whose runs record every load and store";
  if (when.size() != 1) return f.wrong("records_memory", rule);
  const std::string name = when.begin().key();
  const json& values = when.begin().value();
  const auto param = std::find_if(params.begin(), params.end(),
                                  [&](const ParamDef& p) { return p.name == name; });
  if (param == params.end())
    return f.wrong("records_memory", std::string(rule) + ": \"" + name + "\" is no parameter");
  if (!values.is_array() || values.empty()) return f.wrong("records_memory", rule);
  LessonDef::MemoryRecordingWhen w{name, {}};
  for (const json& v : values) {
    if (!v.is_number_integer() || v.get<int64_t>() < param->min || v.get<int64_t>() > param->max)
      return f.wrong("records_memory." + name,
                     "must list values of " + name + " from " + std::to_string(param->min) +
                         " to " + std::to_string(param->max) + ": got " + v.dump());
    w.values.push_back(v.get<int64_t>());
  }
  return std::optional(w);
}

// "shown_stores" or "shown_loads": buffer names as --show-stores takes them (C identifiers, or
// "NAME on the line with TEXT", at most kMaxShownBuffers). A comma would split an entry in two.
Result<std::vector<std::string>> shown_buffers(const Fields& f, const json& j, const char* key) {
  COOP_TAKE(names, f.texts(j, key, ""));
  for (const std::string& n : names)
    if (n.find(',') != std::string::npos)
      return f.wrong(key, "holds names: '" + n + "' holds a comma (a text to find on a line "
                          "holds none: entries are joined by commas)");
  Result<std::vector<std::string>> checked =
      parse_shown_buffers(join_shown_buffers(names), "holds names");
  if (!checked) return f.wrong(key, checked.status().message());
  return names;
}

// "register_caps": {"kernel": K, "caps": [N...], "must_spill": {"up_to": N, "check": NAME}}.
Result<std::optional<LessonDef::RegisterCaps>> read_register_caps(const Fields& f, const json& j) {
  if (!j.contains("register_caps")) return std::optional<LessonDef::RegisterCaps>();
  const json& r = j["register_caps"];
  if (!r.is_object()) return f.wrong("register_caps", "must be an object");
  if (Status s = f.only(r, "register_caps.", {"kernel", "caps", "must_spill"}); !s) return s;
  LessonDef::RegisterCaps caps;
  COOP_TAKE(kernel, f.text(r, "kernel", "register_caps.", true));
  caps.kernel = kernel;
  const char* list = "must be a list of 1 to 8 --maxrregcount values from 16 to 255";
  if (!r.contains("caps") || !r["caps"].is_array() || r["caps"].empty() || r["caps"].size() > 8)
    return f.wrong("register_caps.caps", list);
  for (const json& c : r["caps"]) {
    if (!c.is_number_integer() || c.get<int64_t>() < 16 || c.get<int64_t>() > 255)
      return f.wrong("register_caps.caps", std::string(list) + ": got " + c.dump());
    caps.caps.push_back(int(c.get<int64_t>()));
  }
  if (r.contains("must_spill")) {
    const json& m = r["must_spill"];
    if (!m.is_object()) return f.wrong("register_caps.must_spill", "must be an object");
    if (Status s = f.only(m, "register_caps.must_spill.", {"up_to", "check"}); !s) return s;
    COOP_TAKE(up_to, f.integer(m, "up_to", "register_caps.must_spill.", 0, 16, 255));
    COOP_TAKE(check, f.text(m, "check", "register_caps.must_spill.", true));
    caps.must_spill_up_to = int(up_to);
    caps.must_spill_check = check;
  }
  return std::optional(caps);
}

// The one .cu of the folder: the lesson's program.
Result<fs::path> program_of(const fs::path& folder) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(folder, ec))
    if (e.path().extension() == ".cu" && e.is_regular_file(ec)) found.push_back(e.path());
  if (found.size() == 1) return found[0];
  std::string names;
  for (const fs::path& p : found) names += (names.empty() ? "" : ", ") + p.filename().string();
  return Status::error(folder.string() + ": a lesson folder holds one CUDA program (<name>.cu): " +
                       (found.empty() ? std::string("found none") : "found " + names));
}

Status read_fields(const fs::path& folder, LessonDef& l) {
  const std::string file = (folder / "lesson.json").string();
  Result<std::string> text = read_user_file(file, kTextFileLimit);
  if (!text) return text.status();
  const json j = json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Status::error(file + ": not a JSON object (lessons/README.md shows one)");
  const Fields f(file);
  if (Status s = f.only(j, "",
                        {"id", "order", "title", "level", "concepts", "launch", "rules", "params",
                         "gpu", "traces_comparable", "incomparable_kernels", "records_memory",
                         "records_blocks", "shown_stores", "shown_loads", "trace_threads_max",
                         "trace_launches", "vary_repeats", "benchmark_tab",
                         "register_caps"});
      !s)
    return s;
  COOP_TAKE(id, f.text(j, "id", "", true));
  if (id.empty() || id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
    return f.wrong("id", "must be lower-case letters, digits and -: got \"" + id + "\"");
  COOP_TAKE(order, f.integer(j, "order", "", 1000, 0, 1000000));
  COOP_TAKE(title, f.text(j, "title", "", true));
  COOP_TAKE(level, f.text(j, "level", "", false));
  COOP_TAKE(concepts, f.texts(j, "concepts", ""));
  COOP_TAKE(launch, read_launch(f, j));
  COOP_TAKE(derived, f.texts(j["launch"], "derived", "launch."));
  for (const std::string& part : derived)
    if (part != "grid" && part != "block")
      return f.wrong("launch.derived", "names \"grid\" or \"block\": got \"" + part + "\"");
  COOP_TAKE(params, read_params(f, j));
  COOP_TAKE(comparable, f.flag(j, "traces_comparable", "", true));
  COOP_TAKE(incomparable, f.texts(j, "incomparable_kernels", ""));
  const bool memory_when = j.contains("records_memory") && j["records_memory"].is_object();
  COOP_TAKE(records_memory, memory_when ? false : f.flag(j, "records_memory", "", false));
  COOP_TAKE(recording_when, memory_when ? read_recording_when(f, j["records_memory"], params)
                                        : std::optional<LessonDef::MemoryRecordingWhen>());
  COOP_TAKE(records_blocks, f.flag(j, "records_blocks", "", false));
  COOP_TAKE(shown_stores, shown_buffers(f, j, "shown_stores"));
  COOP_TAKE(shown_loads, shown_buffers(f, j, "shown_loads"));
  COOP_TAKE(trace_threads, f.integer(j, "trace_threads_max", "", 0, 0, kMaxTracedThreads));
  COOP_TAKE(trace_launches, f.text(j, "trace_launches", "", false));
  if (trace_launches.empty()) trace_launches = "all";
  if (trace_launches != "all" && trace_launches != "first")
    return f.wrong("trace_launches",
                   "must be \"all\" or \"first\": got \"" + trace_launches + "\"");
  COOP_TAKE(vary_repeats, f.flag(j, "vary_repeats", "", false));
  COOP_TAKE(benchmark_tab, f.flag(j, "benchmark_tab", "", false));
  COOP_TAKE(register_caps, read_register_caps(f, j));
  l.id = id;
  l.order = int(order);
  l.title = title;
  if (level == "" || level == "beginner") l.level = Level::Beginner;
  else if (level == "intermediate") l.level = Level::Intermediate;
  else if (level == "advanced") l.level = Level::Advanced;
  else return f.wrong("level", "must be \"beginner\", \"intermediate\" or \"advanced\": got \"" + level + "\"");
  l.concepts = concepts;
  l.default_config = launch;
  l.derives_grid = std::count(derived.begin(), derived.end(), "grid") > 0;
  l.derives_block = std::count(derived.begin(), derived.end(), "block") > 0;
  l.params = params;
  l.traces_comparable = comparable;
  l.incomparable_kernels = incomparable;
  l.records_memory = records_memory;
  l.records_memory_when = recording_when;
  l.shown = {shown_stores, shown_loads, records_blocks};
  l.trace_threads_max = uint64_t(trace_threads);
  l.trace_launches = trace_launches;
  l.vary_repeats = vary_repeats;
  l.benchmark_tab = benchmark_tab;
  l.register_caps = register_caps;
  const json none = json::object();
  const json& gpu = j.contains("gpu") ? j["gpu"] : none;
  if (!gpu.is_object()) return f.wrong("gpu", "must be an object");
  if (Status s = f.only(gpu, "gpu.", {"runs", "min_cc", "checks"}); !s) return s;
  COOP_TAKE(runs, f.flag(gpu, "runs", "gpu.", true));
  COOP_TAKE(min_cc, f.integer(gpu, "min_cc", "gpu.", 0, 0, 200));
  COOP_TAKE(gpu_checks, f.texts(gpu, "checks", "gpu."));
  l.runs_on_gpu = runs;
  l.min_cc = int(min_cc);
  l.gpu_checks = gpu_checks;
  const json& r = j.contains("rules") ? j["rules"] : none;
  if (!r.is_object()) return f.wrong("rules", "must be an object");
  if (Status s = f.only(r, "rules.", {"one_dimensional", "block_power_of_two", "block_min",
                                      "block_max", "block_multiple", "grid_max", "threads_max"});
      !s)
    return s;
  LaunchRules rules;
  COOP_TAKE(one_d, f.flag(r, "one_dimensional", "rules.", false));
  COOP_TAKE(pow2, f.flag(r, "block_power_of_two", "rules.", false));
  COOP_TAKE(block_min, f.integer(r, "block_min", "rules.", 1, 1, 1024));
  COOP_TAKE(block_max, f.integer(r, "block_max", "rules.", 1024, block_min, 1024));
  COOP_TAKE(multiple, f.integer(r, "block_multiple", "rules.", 1, 1, 1024));
  COOP_TAKE(grid_max, f.integer(r, "grid_max", "rules.", INT32_MAX, 1, INT32_MAX));
  COOP_TAKE(threads_max, f.integer(r, "threads_max", "rules.", INT64_MAX, 1, INT64_MAX));
  rules = {one_d, pow2, block_min, block_max, multiple, grid_max, threads_max};
  if (Status s = check_rules(rules, id, launch); !s)
    return f.wrong("launch", "breaks the lesson's own rules: " + s.message());
  l.validate = [rules, id](const LaunchConfig& c, const Params&) { return check_rules(rules, id, c); };
  return {};
}

#undef COOP_TAKE

}  // namespace

bool is_lesson_folder(const fs::path& folder) {
  std::error_code ec;
  return fs::is_regular_file(folder / "lesson.json", ec);
}

Result<LessonDef> read_lesson_folder(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return Status::error("no lesson folder " + folder.string());
  if (!is_lesson_folder(folder))
    return Status::error(folder.string() + ": a lesson folder needs a lesson.json "
                                           "(lessons/README.md)");
  LessonDef l;
  if (Status s = read_fields(folder, l); !s) return s;
  Result<fs::path> program = program_of(folder);
  if (!program) return program.status();
  Result<std::string> source = read_user_file(program->string(), kSourceFileLimit);
  if (!source) return source.status();
  const std::string text_file = (folder / "lesson.md").string();
  Result<std::string> markdown = read_user_file(text_file, kTextFileLimit);
  if (!markdown) return markdown.status();
  l.folder = fs::absolute(folder, ec).lexically_normal().string();
  l.program = fs::absolute(*program, ec).lexically_normal().string();
  l.source = keep(std::move(*source));
  l.source_file = program->filename().string();
  read_lesson_markdown(l, keep(std::move(*markdown)), text_file);
  // Nsight Compute's counters of the lesson's kernels, where `scripts/gpu-check.sh ncu` measured
  // them (LessonDef::gpu_counters); none until then.
  if (const fs::path ncu = folder / "ncu.json"; fs::exists(ncu, ec)) {
    Result<std::string> counters = read_user_file(ncu.string(), kTextFileLimit);
    if (!counters) return counters.status();
    l.gpu_counters = keep(std::move(*counters));
  }
  return l;
}

std::vector<fs::path> lesson_folders_in(const fs::path& dir) {
  if (is_lesson_folder(dir)) return {dir};
  std::vector<fs::path> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec) && is_lesson_folder(e.path())) found.push_back(e.path());
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace coop::lessons
