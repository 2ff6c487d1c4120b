#include "lessons/step.hpp"

#include <algorithm>
#include <cctype>
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

// Keys a step block may give more than once; every other key is given at most once.
bool repeatable(std::string_view key) {
  return key == "line" || key == "param";
}

// A fenced code block's opening line: ``` with or without a language.
bool is_fence(std::string_view line) {
  return line.starts_with(kFenceClose);
}

// A line of text rather than a key: a "key" of several words, or no colon and several words.
// Inside a block it means the block's closing ``` is missing.
bool is_prose(std::string_view line) {
  const size_t colon = line.find(':');
  const std::string_view head = line.substr(0, colon);
  const size_t words = size_t(std::count(head.begin(), head.end(), ' ')) + 1;
  return colon == std::string_view::npos ? words >= 4 : words >= 2 && trim(head) == head;
}

// Reads the lines after "## Steps" into steps, keeping every mistake it meets and going on, so
// that an author sees all of them at once.
class StepsReader {
 public:
  StepsReader(LessonMarkdown& out, const std::string& file) : out_(out), file_(file) {}

  void line(int no, std::string_view raw) {
    const std::string_view line = trim(raw);
    if (in_ == In::Block && line == kFenceClose) {
      in_ = In::Text;
    } else if (in_ == In::Question && line == kFenceClose) {
      in_ = In::Text;
    } else if ((in_ == In::Block || in_ == In::Question) &&
               (raw.starts_with("#") || is_fence(line) || is_prose(line))) {
      // A heading, another block or a sentence inside a block: its closing ``` is missing. Said
      // once, then the line is read as what it is, so no step after it is swallowed.
      close_unclosed();
      this->line(no, raw);
    } else if (in_ == In::Question) {
      step().questions.back().body += std::string(raw) + "\n";
    } else if (in_ == In::Block) {
      key_line(no, line);
    } else if (text_fence_ > 0 && !raw.starts_with(kStepHeading)) {
      if (line == kFenceClose) text_fence_ = 0;
      step().text += std::string(raw) + "\n";
    } else if (raw.starts_with(kStepHeading)) {
      finish();
      out_.steps.emplace_back();
      step().title = std::string(trim(raw.substr(kStepHeading.size())));
      step().md_line = no;
      if (step().title.empty()) fail(no, "a step heading without a title: write \"### Title\"");
      in_ = In::Between;
    } else if (raw.starts_with("# ") || raw.starts_with("## ")) {
      fail(no,
           "'" + std::string(line) +
               "' among the steps: after \"## Steps\" come only steps, "
               "each a \"### \" heading (a smaller heading, ####, may be part of a step's text)");
    } else if (out_.steps.empty()) {
      if (!line.empty()) fail(no, "text after \"## Steps\" before the first \"### \" step heading");
    } else if (in_ == In::Between && line == kFenceOpen) {
      in_ = In::Block;
      block_line_ = no;
    } else if (in_ == In::Between) {
      if (!line.empty()) {
        fail(no, "step '" + step().title + "': a ```step block must follow its heading");
        broken_ = true;
        in_ = In::Text;
        this->line(no, raw);
      }
    } else if (line == kFenceOpen) {
      fail(no, "step '" + step().title +
                   "': a second ```step block (a step is one \"### \" "
                   "heading, one ```step block, then its text)");
      in_ = In::Block;
      block_line_ = no;
      ignore_keys_ = true;
    } else if (line == kQuestionFence) {
      step().questions.push_back({no, ""});
      in_ = In::Question;
    } else {
      if (is_fence(line)) text_fence_ = no;
      step().text += std::string(raw) + "\n";
    }
  }

  // After the last line: the last step is complete, or what it lacks is said.
  void finish() {
    if (out_.steps.empty()) return;
    close_unclosed();
    Step& s = step();
    if (text_fence_ > 0)
      fail(text_fence_, "step '" + s.title + "': this code block is not closed (a ``` line)");
    text_fence_ = 0;
    if (!broken_) {
      if (Status st = check_complete(s); !st)
        fail(s.md_line, "step '" + s.title + "': " + st.message());
      else if (!s.key_lines.contains("colour"))
        fail(s.md_line, "step '" + s.title + "': the step block lacks colour");
    }
    broken_ = ignore_keys_ = false;
    s.text = std::string(trim(s.text));
  }

  const std::string& errors() const { return errors_; }

 private:
  enum class In { Between, Block, Text, Question };

  Step& step() { return out_.steps.back(); }

  void fail(int line, const std::string& what) {
    errors_ += (errors_.empty() ? "" : "\n") + file_ + ":" + std::to_string(line) + ": " + what;
  }

  void close_unclosed() {
    if (in_ == In::Block)
      fail(block_line_,
           "step '" + step().title + "': its ```step block is not closed (a ``` line)");
    if (in_ == In::Question)
      fail(step().questions.back().md_line,
           "step '" + step().title + "': its ```question block is not closed (a ``` line)");
    if (in_ == In::Block && !ignore_keys_) broken_ = true;  // its keys may be cut short
    if (in_ == In::Block || in_ == In::Question) in_ = In::Text;
  }

  void key_line(int no, std::string_view line) {
    if (line.empty() || ignore_keys_) return;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      fail(no, "'" + std::string(line) + "' is not a key: value line");
      return;
    }
    const std::string_view key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    Step& s = step();
    if (const auto first = s.key_lines.find(key); first != s.key_lines.end() && !repeatable(key)) {
      fail(no, "'" + std::string(key) + "' is given twice in one step block (first on line " +
                   std::to_string(first->second) + ")");
      return;
    }
    if (value.empty()) {
      fail(no, "'" + std::string(key) + "' has no value");
      return;
    }
    if (Status st = apply_key(s, key, value); !st) {
      fail(no, st.message());
      return;
    }
    s.key_lines.emplace(std::string(key), no);
    if (key == "line") s.code_lines.push_back(no);
  }

  LessonMarkdown& out_;
  const std::string& file_;
  std::string errors_;
  In in_ = In::Between;
  int block_line_ = 0;        // the open ```step fence
  int text_fence_ = 0;        // an open code block of the step's text (0: none)
  bool broken_ = false;       // the step's block is missing or cut short: what it lacks is moot
  bool ignore_keys_ = false;  // the open block is a second one, already reported
};

}  // namespace

Result<LessonMarkdown> parse_lesson_markdown(std::string_view md, const std::string& file) {
  LessonMarkdown out;
  StepsReader reader(out, file);
  std::string before;  // mistakes in the text before "## Steps"
  bool in_steps = false;
  int no = 1;
  for (size_t pos = 0; pos <= md.size(); ++no) {
    const size_t end = std::min(md.find('\n', pos), md.size());
    const std::string_view raw = md.substr(pos, end - pos);
    if (in_steps) {
      reader.line(no, raw);
    } else if (raw.starts_with(kStepsHeading) && trim(raw) == kStepsHeading) {
      out.text = md.substr(0, pos);
      in_steps = true;
    } else if (trim(raw) == kFenceOpen || trim(raw) == kQuestionFence) {
      before += (before.empty() ? "" : "\n") + file + ":" + std::to_string(no) + ": a " +
                std::string(trim(raw)) +
                " block before the \"## Steps\" heading (steps and their "
                "questions follow it)";
    }
    if (end == md.size()) break;
    pos = end + 1;
  }
  if (!in_steps) out.text = md;
  reader.finish();
  std::string errors = before;
  if (!reader.errors().empty()) errors += (errors.empty() ? "" : "\n") + reader.errors();
  if (!errors.empty()) return Status::error(errors);
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

namespace coop::lessons {

bool speaks_of_cell_numbers(std::string_view text) {
  std::string sentence;
  auto names_them = [&] {
    const bool cells = sentence.find("cell") != std::string::npos;
    const bool number = sentence.find("number") != std::string::npos;
    const bool rank = sentence.find("rank") != std::string::npos;
    // "each number is a rank", "the numbers run 0, 0, 1, 1": the grid's numbers without the
    // word cell.
    return (cells && (number || rank)) || (number && rank);
  };
  for (const char c : text) {
    // A sentence ends at a full stop followed by a space, or at a blank line.
    if ((c == ' ' || c == '\n') && !sentence.empty() &&
        (sentence.back() == '.' || (c == '\n' && sentence.back() == '\n'))) {
      if (names_them()) return true;
      sentence.clear();
      continue;
    }
    sentence += char(std::tolower(static_cast<unsigned char>(c)));
  }
  return names_them();
}

}  // namespace coop::lessons
