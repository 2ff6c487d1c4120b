// A lesson step is a complete view state, declared in the lesson's own lesson.md next to the text
// the student reads: which kernel launch is shown, the moment playback stands at, how the grid is
// coloured, which result tab is open, who is selected and which source lines are highlighted.
// The app applies it; `coopviz steps --json` reads back what the window then draws.
//
// In lesson.md, everything before the heading "## Steps" is the lesson text. Each step is a
// "### Title" heading followed by a ```step block of "key: value" lines and then its text:
//
//   ### Every thread gets a handle
//   ```step
//   kernel: where_am_i          the launch shown (add "launch: 2" for its second launch)
//   moment: last group_create   see device/trace/moment.hpp
//   colour: block               a group kind, or blockIdx, or warp-in-block
//   tab: events                 checks, events, barriers, atomics, flow, memory, occupancy, ...
//   select: thread 11           thread N | warp N [of block B] | block B   (optional)
//   line: cg::this_thread_block()   a snippet; every kernel line holding it is highlighted
//   param: pass=0               parameters the step runs with (optional, repeatable)
//   grid: 4                     launch shape the step runs with (optional; block: likewise)
//   zoom: 24                    cell size in pixels (optional; default: fit the grid)
//   races: on                   find data races, as the Launch panel's switch (default: off)
//   ```
//   What the student should see, in Markdown.
//
// A step's text may hold ```question blocks (predict, then run: app/questions/questions.hpp
// reads them). They are kept apart from the text, which the student reads before answering.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "device/launch/dims.hpp"
#include "device/launch/result.hpp"
#include "device/trace/moment.hpp"
#include "lessons/params.hpp"

namespace coop::lessons {

// How the thread grid colours threads in a step.
struct StepColour {
  enum class By : uint8_t { Group, BlockIdx, WarpInBlock };
  By by = By::BlockIdx;
  GroupKind group = GroupKind::None;  // By::Group: which kind of group
};

// Who is selected in the grid when the step opens.
struct StepSelection {
  enum class Scope : uint8_t { None, Thread, Warp, Block };
  Scope scope = Scope::None;
  uint32_t thread = 0;  // Scope::Thread: grid-wide thread id
  uint32_t warp = 0;    // Scope::Warp: warp within `block`
  uint32_t block = 0;   // Scope::Warp and Scope::Block: linear block index
};

// A ```question block of a step, as written: app/questions parses and evaluates it.
struct StepQuestionBlock {
  int md_line = 0;   // line of its opening fence in lesson.md (for messages)
  std::string body;  // its "key: value" lines
};

struct Step {
  std::string title;
  std::string text;      // Markdown shown in the middle column
  int md_line = 0;       // line of the step's heading in lesson.md (for messages)
  std::string kernel;    // the launch shown: the `launch`-th launch of this kernel
  int launch = 1;
  MomentSpec moment;
  StepColour colour;
  std::string tab;       // result tab, by its script name
  StepSelection select;
  std::vector<std::string> code;  // kernel source snippets; lines holding one are highlighted
  Params params;                  // parameter values the step runs with
  std::optional<Dim3> grid, block;
  float zoom = 0;  // cell size in pixels; 0: fit the whole grid
  std::vector<StepQuestionBlock> questions;  // asked before the step is shown
  bool races = false;  // the run records every access and its data races are shown
  // Where each key of the step block is in lesson.md (its first line), and each `line:`
  // snippet's line (as `code`): messages about what a key names point there.
  std::map<std::string, int, std::less<>> key_lines;
  std::vector<int> code_lines;
};

// A lesson.md split into the lesson text and its steps.
struct LessonMarkdown {
  std::string_view text;  // everything before "## Steps"
  std::vector<Step> steps;
};

// Parses a lesson.md. Nothing is passed over: every line after "## Steps" is a heading, a key of
// a step block, a question block's or the step's text. The error holds every mistake, one a line,
// "FILE:LINE: what is wrong" (`file` is only used in messages): an unknown or repeated key, a
// missing required key (kernel, moment, colour, tab, line), a value that does not parse, a block
// or code block that is not closed, a second step block, a "#" or "##" heading among the steps, a
// step or question block before "## Steps".
Result<LessonMarkdown> parse_lesson_markdown(std::string_view markdown, const std::string& file);

// Whether a step's text speaks of the numbers written in the thread grid's cells (a sentence that
// names cells and numbers or ranks, or numbers and ranks): presentation mode then zooms in far
// enough to read them, and `coopviz steps --size` checks that they are drawn.
bool speaks_of_cell_numbers(std::string_view text);

// "block", "tile", ..., "blockIdx", "warp" for a colour.
std::string to_string(const StepColour& colour);

}  // namespace coop::lessons
