#include "lessons/step.hpp"

#include <algorithm>
#include <charconv>

#include "device/launch/launch_config.hpp"
#include "device/launch/trim.hpp"
#include "device/trace/names.hpp"

namespace coop::lessons {
namespace {

constexpr std::string_view kStepsHeading = "## Steps";
constexpr std::string_view kStepHeading = "### ";
constexpr std::string_view kFenceOpen = "```step";
constexpr std::string_view kFenceClose = "```";
constexpr std::string_view kQuestionFence = "```question";

std::optional<uint32_t> whole_number(std::string_view w) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

Result<StepColour> parse_colour(std::string_view v) {
  StepColour c;
  if (v == "blockIdx") return c;
  if (v == "warp-in-block") {
    c.by = StepColour::By::WarpInBlock;
    return c;
  }
  const std::optional<GroupKind> g = group_kind_named(v);
  if (!g || *g == GroupKind::None || *g == GroupKind::Thread)
    return Status::error("colour '" + std::string(v) +
                         "': choose a group kind (block, grid, cluster, tile, coalesced, labeled, "
                         "binary, stride, warp), blockIdx or warp-in-block");
  c.by = StepColour::By::Group;
  c.group = *g;
  return c;
}

Result<StepSelection> parse_select(std::string_view v) {
  std::vector<std::string_view> w;
  for (size_t i = 0; i < v.size();) {
    const size_t end = std::min(v.find(' ', i), v.size());
    if (end > i) w.push_back(v.substr(i, end - i));
    i = end + 1;
  }
  StepSelection s;
  const Status bad = Status::error("select '" + std::string(v) +
                                   "': write thread N, warp N, warp N of block B, or block B");
  if (w.size() == 2 && whole_number(w[1])) {
    const uint32_t n = *whole_number(w[1]);
    if (w[0] == "thread") s = {StepSelection::Scope::Thread, n, 0, 0};
    else if (w[0] == "warp") s = {StepSelection::Scope::Warp, 0, n, 0};
    else if (w[0] == "block") s = {StepSelection::Scope::Block, 0, 0, n};
    else return bad;
    return s;
  }
  if (w.size() == 5 && w[0] == "warp" && w[2] == "of" && w[3] == "block" && whole_number(w[1]) &&
      whole_number(w[4]))
    return StepSelection{StepSelection::Scope::Warp, 0, *whole_number(w[1]), *whole_number(w[4])};
  return bad;
}

// One "key: value" line of a step block into `step`.
Status apply_key(Step& step, std::string_view key, std::string_view value) {
  if (key == "kernel") {
    step.kernel = std::string(value);
  } else if (key == "launch") {
    const std::optional<uint32_t> n = whole_number(value);
    if (!n || *n < 1) return Status::error("launch '" + std::string(value) + "': a number from 1");
    step.launch = int(*n);
  } else if (key == "moment") {
    Result<MomentSpec> m = parse_moment(value);
    if (!m) return m.status();
    step.moment = *m;
  } else if (key == "colour") {
    Result<StepColour> c = parse_colour(value);
    if (!c) return c.status();
    step.colour = *c;
  } else if (key == "tab") {
    step.tab = std::string(value);
  } else if (key == "select") {
    Result<StepSelection> s = parse_select(value);
    if (!s) return s.status();
    step.select = *s;
  } else if (key == "line") {
    step.code.emplace_back(value);
  } else if (key == "param") {
    const size_t eq = value.find('=');
    const std::optional<uint32_t> n =
        eq == std::string_view::npos ? std::nullopt : whole_number(trim(value.substr(eq + 1)));
    if (!n) return Status::error("param '" + std::string(value) + "': write name=value");
    step.params[std::string(trim(value.substr(0, eq)))] = int64_t(*n);
  } else if (key == "grid" || key == "block") {
    Result<Dim3> d = parse_dim3(value, std::string(key));
    if (!d) return d.status();
    (key == "grid" ? step.grid : step.block) = *d;
  } else if (key == "zoom") {
    const std::optional<uint32_t> n = whole_number(value);
    if (value == "fit") step.zoom = 0;
    else if (n && *n >= 2 && *n <= 48) step.zoom = float(*n);
    else return Status::error("zoom '" + std::string(value) + "': fit, or 2 to 48 pixels");
  } else if (key == "races") {
    if (value != "on" && value != "off")
      return Status::error("races '" + std::string(value) + "': on or off");
    step.races = value == "on";
  } else {
    return Status::error("unknown key '" + std::string(key) +
                         "' (kernel, launch, moment, colour, tab, select, line, param, grid, "
                         "block, zoom, races)");
  }
  return {};
}

Status check_complete(const Step& s) {
  std::string missing;
  auto need = [&](bool ok, const char* key) {
    if (!ok) missing += (missing.empty() ? "" : ", ") + std::string(key);
  };
  need(!s.kernel.empty(), "kernel");
  need(s.moment.kind != EventKind::None || s.moment.which == MomentSpec::Which::End, "moment");
  need(!s.tab.empty(), "tab");
  need(!s.code.empty(), "line");
  if (!missing.empty()) return Status::error("the step block lacks " + missing);
  return {};
}

}  // namespace

Result<LessonMarkdown> parse_lesson_markdown(std::string_view md, const std::string& file) {
  LessonMarkdown out;
  const size_t steps_at = [&] {
    for (size_t at = md.find(kStepsHeading); at != std::string_view::npos;
         at = md.find(kStepsHeading, at + 1))
      if ((at == 0 || md[at - 1] == '\n') &&
          trim(md.substr(at, md.find('\n', at) - at)) == kStepsHeading)
        return at;
    return std::string_view::npos;
  }();
  out.text = md.substr(0, steps_at);
  if (steps_at == std::string_view::npos) return out;

  int line_no = int(std::count(md.begin(), md.begin() + ptrdiff_t(steps_at), '\n')) + 1;
  enum class In { Between, Block, Text, Question } in = In::Between;
  bool colour_given = false;
  auto fail = [&](int line, const std::string& what) {
    return Status::error(file + ":" + std::to_string(line) + ": " + what);
  };
  auto finish = [&]() -> Status {
    if (out.steps.empty()) return {};
    Step& s = out.steps.back();
    if (in == In::Block) return fail(s.md_line, "step '" + s.title + "': its ```step block is not closed");
    if (in == In::Question)
      return fail(s.questions.back().md_line,
                  "step '" + s.title + "': its ```question block is not closed");
    if (Status st = check_complete(s); !st)
      return fail(s.md_line, "step '" + s.title + "': " + st.message());
    if (!colour_given) return fail(s.md_line, "step '" + s.title + "': the step block lacks colour");
    s.text = std::string(trim(s.text));
    return {};
  };
  size_t pos = steps_at;
  while (pos < md.size()) {
    size_t end = md.find('\n', pos);
    if (end == std::string_view::npos) end = md.size();
    const std::string_view raw = md.substr(pos, end - pos);
    const std::string_view line = trim(raw);
    if (line_no > 0 && pos != steps_at) {
      if (in == In::Question) {
        if (line == kFenceClose)
          in = In::Text;
        else
          out.steps.back().questions.back().body += std::string(raw) + "\n";
      } else if (in != In::Block && raw.starts_with(kStepHeading)) {
        if (Status s = finish(); !s) return s;
        out.steps.emplace_back();
        out.steps.back().title = std::string(trim(raw.substr(kStepHeading.size())));
        out.steps.back().md_line = line_no;
        colour_given = false;
        in = In::Between;
      } else if (out.steps.empty()) {
        if (!line.empty())
          return fail(line_no, "text after \"## Steps\" before the first \"### \" step heading");
      } else if (in == In::Between && line == kFenceOpen) {
        in = In::Block;
      } else if (in == In::Block && line == kFenceClose) {
        in = In::Text;
      } else if (in == In::Block) {
        if (!line.empty()) {
          const size_t colon = line.find(':');
          if (colon == std::string_view::npos)
            return fail(line_no, "'" + std::string(line) + "' is not a key: value line");
          const std::string_view key = trim(line.substr(0, colon));
          if (Status s = apply_key(out.steps.back(), key, trim(line.substr(colon + 1))); !s)
            return fail(line_no, s.message());
          colour_given |= key == "colour";
        }
      } else if (in == In::Text && line == kQuestionFence) {
        out.steps.back().questions.push_back({line_no, ""});
        in = In::Question;
      } else if (in == In::Between && !line.empty()) {
        return fail(line_no, "step '" + out.steps.back().title +
                                 "': a ```step block must follow its heading");
      } else {
        out.steps.back().text += std::string(raw) + "\n";
      }
    }
    pos = end + 1;
    ++line_no;
  }
  if (Status s = finish(); !s) return s;
  return out;
}

std::string to_string(const StepColour& c) {
  switch (c.by) {
    case StepColour::By::BlockIdx: return "blockIdx";
    case StepColour::By::WarpInBlock: return "warp-in-block";
    case StepColour::By::Group: return std::string(name_of(c.group));
  }
  return "?";
}

}  // namespace coop::lessons
