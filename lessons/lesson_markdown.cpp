// A lesson's lesson.md read into its LessonDef: the text, the steps, and every mistake of them,
// including what a step names that the lesson does not have.
#include <string>

#include "lessons/lesson.hpp"

namespace coop::lessons {
namespace {

// What step `s` names that the lesson does not have: a kernel its file does not define, a line
// no kernel line holds, a parameter or launch the lesson refuses. Each message is
// "FILE:LINE: step 'T': what", one a line. Who the step selects is left to its run: a lesson
// may derive the launch that runs from its parameters (a grid of whole waves).
std::string missing_in(const LessonDef& l, const Step& s, const std::string& file) {
  std::string out;
  auto fail = [&](std::string_view key, const std::string& what) {
    const auto at = s.key_lines.find(key);
    const int line = at == s.key_lines.end() ? s.md_line : at->second;
    out += (out.empty() ? "" : "\n") + file + ":" + std::to_string(line) + ": step '" + s.title +
           "': " + what;
  };
  if (kernel_lines(l.source, s.kernel) == std::make_pair(0, 0))
    fail("kernel", "kernel '" + s.kernel + "': " + l.source_file +
                       " defines no __global__ function of that name");
  for (size_t i = 0; i < s.code.size(); ++i)
    if (lines_with(l.source, s.code[i]).empty())
      out += (out.empty() ? "" : "\n") + file + ":" + std::to_string(s.code_lines[i]) + ": step '" +
             s.title + "': line '" + s.code[i] + "': no line of " + l.source_file + " holds it";
  const RunRequest r = step_request(l, s);
  if (Status st = check_params(l, r.params); !st) {
    fail("param", st.message());
    return out;  // the launch is the parameters' to decide
  }
  if (l.validate)
    if (Status st = l.validate(r.config, r.params); !st)
      fail(s.grid    ? "grid"
           : s.block ? "block"
                     : "kernel",
           "its launch (grid " + r.config.grid.str() + ", block " + r.config.block.str() +
               ") is refused: " + st.message());
  return out;
}

}  // namespace

void read_lesson_markdown(LessonDef& l, std::string_view markdown, const std::string& file) {
  l.text = markdown;
  l.text_file = file;
  l.steps.clear();
  l.steps_error.clear();
  Result<LessonMarkdown> md = parse_lesson_markdown(markdown, file);
  if (!md) {
    l.steps_error = md.message();
    return;
  }
  l.text = md->text;
  l.steps = std::move(md->steps);
  for (const Step& s : l.steps)
    if (std::string missing = missing_in(l, s, file); !missing.empty())
      l.steps_error += (l.steps_error.empty() ? "" : "\n") + missing;
}

}  // namespace coop::lessons
