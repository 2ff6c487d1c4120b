// The lesson kernel with syntax colours. Lines where threads are at the playback cursor are
// highlighted with a count of threads; the current step's lines are marked; lines whose memory
// accesses were recorded carry a badge after the code (sectors per request, bank-conflict ways),
// lines in a data race a "race" badge in the gutter, lines the compiler refused an "error" badge;
// clicking a line reports it (the app jumps
// playback to that line's next event).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "visual/memory_badges.hpp"

namespace coop::visual {

struct CodeViewInput {
  std::string_view source;
  const std::vector<uint32_t>* line_counts = nullptr;  // threads per line (index = line)
  uint32_t thread_count = 0;                           // for "all N threads" in tooltips
  std::vector<int> step_lines;                         // the current step's lines
  int last_event_line = 0;                             // line of the event just played
  const std::vector<MemoryBadge>* memory = nullptr;    // access analysis per line (index = line)
  // Per line: "" or what it races with; null when no race is shown (no gutter column for them).
  const std::vector<std::string>* races = nullptr;
  // Per line: "" or the compiler's errors there (a program saved with errors): the line is
  // marked in the gutter and its first error written after the code, all of them on hover.
  const std::vector<std::string>* errors = nullptr;
};

struct CodeViewSettings {
  bool follow = true;      // scroll so the line of the event just played stays visible
  int followed_line = 0;   // the line the view last scrolled to
  int scroll_to_line = 0;  // one-shot request: bring this line into view (a step's code)
  int range_first = 0, range_last = 0;  // with it: lines to show together where they fit
  // The last request, kept: when the pane changes height (presentation mode, a splitter) the
  // same lines are brought into view again.
  int focus_line = 0, focus_first = 0, focus_last = 0;
  float shown_height = 0;
  // What the last frame showed without scrolling: characters of a code line past the gutter, and
  // whole lines.
  int visible_chars = 0, visible_lines = 0;
};

// The width the view needs to show `columns` characters of every line beside its gutter (with
// the race column when `races`), its vertical scrollbar included, in the current style.
float code_view_width(int columns, bool races);

// Draws the view filling the region `size`. Returns the 1-based line clicked, or 0.
int draw_code_view(const char* id, const CodeViewInput& in, CodeViewSettings& settings,
                   const float height);

}  // namespace coop::visual
